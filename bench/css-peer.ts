/**
 * The peer: Community Solid Server 7 with its default configuration (memory backend, WAC), started on
 * 127.0.0.1. Two things differ from `npx community-solid-server`, both so that it can run at all here:
 *
 * 1. Components.js scans every package under every node_modules above CSS and keeps the highest version
 *    of each component module. This project also depends on Comunica 5 (for its external-store mode),
 *    whose component files need Components.js 6 contexts that CSS's Components.js 5 does not have; it
 *    would then fetch them from the network and fail. So the module scan is limited to CSS's own
 *    dependency closure, resolved the way Node resolves it.
 * 2. JSON-LD bodies cite the D23B context URL, and there is no network: the RdfToQuadConverter's
 *    context cache (a CSS feature its default config already uses for Activity Streams) is given the
 *    bundled D23B context file, exactly as the node serves it from disk.
 *
 * Usage: node dist/bench/css-peer.js <port> <d23b-context-file>. CSS is not a dependency of the project
 * (533 packages for the benchmark's peer rows alone): `npm install --no-save @solid/community-server@^7.2.0`.
 */
import { existsSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { Server } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** What this file uses of Components.js (CSS's own copy; its types come with CSS, which may be absent). */
interface ModuleStateBuilder {
  buildPackageJsons(paths: string[]): Promise<Record<string, unknown>>;
  preprocessPackageJsons(packageJsons: Record<string, unknown>): Promise<void>;
  buildNodeModuleImportPaths(mainModulePath: string): string[];
  buildComponentModules(packageJsons: Record<string, unknown>): Promise<unknown>;
  buildComponentContexts(packageJsons: Record<string, unknown>): Promise<unknown>;
  buildComponentImportPaths(packageJsons: Record<string, unknown>): Promise<unknown>;
}

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** The directory Node would load `name` from when required from `fromDir`. */
function resolvePackageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Every package directory reachable from `root` through dependencies, as Node resolves them. */
function dependencyClosure(root: string): string[] {
  const seen = new Set<string>([root]);
  const queue = [root];
  while (queue.length > 0) {
    const dir = queue.pop()!;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const found = resolvePackageDir(name, dir);
      if (found && !seen.has(found)) {
        seen.add(found);
        queue.push(found);
      }
    }
  }
  return [...seen];
}

async function main(): Promise<void> {
  const [portText, d23bContextFile] = process.argv.slice(2);
  const port = Number(portText);
  if (!Number.isInteger(port) || !d23bContextFile) throw new Error('usage: css-peer <port> <d23b-context-file>');

  const cssDir = dirname(require.resolve('@solid/community-server/package.json'));
  const cssRequire = createRequire(join(cssDir, 'package.json'));
  const { ModuleStateBuilder } = cssRequire('componentsjs') as { ModuleStateBuilder: new () => ModuleStateBuilder };
  const { AppRunner } = cssRequire('@solid/community-server') as {
    AppRunner: new () => { create(input: unknown): Promise<{ start(): Promise<void> }> };
  };

  const builder = new ModuleStateBuilder();
  const nodeModulePaths = dependencyClosure(cssDir);
  const packageJsons = await builder.buildPackageJsons(nodeModulePaths);
  await builder.preprocessPackageJsons(packageJsons);
  const moduleState = {
    mainModulePath: cssDir,
    nodeModuleImportPaths: builder.buildNodeModuleImportPaths(cssDir),
    nodeModulePaths,
    packageJsons,
    componentModules: await builder.buildComponentModules(packageJsons),
    contexts: await builder.buildComponentContexts(packageJsons),
    importPaths: await builder.buildComponentImportPaths(packageJsons),
  };

  // The default config, with only the JSON-LD context cache extended (see 2. above).
  const dir = mkdtempSync(join(tmpdir(), 'css-peer-'));
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      '@context': 'https://linkedsoftwaredependencies.org/bundles/npm/@solid/community-server/^7.0.0/components/context.jsonld',
      import: ['css:config/default.json'],
      '@graph': [
        {
          '@id': 'urn:bench:d23b-context-override',
          '@type': 'Override',
          overrideInstance: { '@id': 'urn:solid-server:default:RdfToQuadConverter' },
          overrideParameters: {
            '@type': 'RdfToQuadConverter',
            contexts: [
              {
                'RdfToQuadConverter:_contexts_key': 'https://www.w3.org/ns/solid/notification/v1',
                'RdfToQuadConverter:_contexts_value': '@css:templates/contexts/notification.jsonld',
              },
              {
                'RdfToQuadConverter:_contexts_key': 'https://www.w3.org/ns/activitystreams',
                'RdfToQuadConverter:_contexts_value': '@css:templates/contexts/activitystreams.jsonld',
              },
              {
                'RdfToQuadConverter:_contexts_key': 'https://vocabulary.uncefact.org/unece-context-D23B.jsonld',
                'RdfToQuadConverter:_contexts_value': d23bContextFile,
              },
            ],
          },
        },
      ],
    }),
  );

  // CSS 7 listens on every interface given only a port; the benchmark keeps all traffic on loopback.
  const listen = Server.prototype.listen;
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    if (args.length === 1 && typeof args[0] === 'number') return listen.call(this, args[0], '127.0.0.1' as never);
    return listen.apply(this, args as never);
  } as typeof listen;

  const app = await new AppRunner().create({
    loaderProperties: { mainModulePath: cssDir, moduleState, logLevel: 'error', typeChecking: false, dumpErrorState: false },
    config,
    shorthand: { port, baseUrl: `http://127.0.0.1:${port}/`, loggingLevel: 'error' },
  });
  await app.start();
  process.stdout.write(`listening ${port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
