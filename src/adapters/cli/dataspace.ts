/**
 * dataspace: the node's one command. Sub-commands load their module only when run, so `--help` and
 * the small ones answer at once. Each exits 0 on success, 1 on a failure it explains, 2 on bad usage.
 */
import { Command, CommanderError } from 'commander';
import { text } from 'node:stream/consumers';
import { ConfigError } from '../../core/config-values.js';
import { SeedError } from '../../core/registry/seed.js';
import { textFrom } from '../../core/settings/read.js';
import type { CliRoot } from './node-data.js';

/**
 * Sub-commands that parse their own arguments: a module exporting `main(argv): Promise<number>` (the
 * exit status). Adding one is one line here.
 */
const DELEGATED: { name: string; module: string; description: string }[] = [
  { name: 'query', module: './query.js', description: 'run one SPARQL query over the endpoints of several nodes (dataspace query --help)' },
];

/** A password from standard input: the first line, without its line end (so no password in `ps` or shell history). */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('password (then Enter, Ctrl-D): ');
  const password = (await text(process.stdin)).split(/\r?\n/)[0] ?? '';
  if (password.length === 0) throw new ConfigError('No password on standard input');
  return password;
}

export function program(root: CliRoot): Command {
  const cli = new Command('dataspace')
    .description('A supply-chain data-space node: serve it, and validate, export, import its data.')
    .showHelpAfterError()
    .exitOverride();

  cli
    .command('serve')
    .description('Start the node (the same as npm start). Configured by environment variables (docs/configuration.md, docs/operations.md).')
    .option('-p, --port <port>', 'port to listen on (PORT)')
    .option('-d, --data-dir <dir>', 'data directory (DATASPACE_DATA_DIR)')
    .action(async (options: { port?: string; dataDir?: string }) => {
      if (options.port !== undefined) process.env.PORT = options.port;
      if (options.dataDir !== undefined) process.env.DATASPACE_DATA_DIR = options.dataDir;
      await root.serve();
    });

  cli
    .command('validate')
    .description(
      "Validate payloads offline against the node's SHACL shapes (an activity, or a bare Consignment, SupplyChainEvent or Document)",
    )
    .argument('<files...>', 'JSON-LD files; - reads standard input')
    .option('--json', 'one JSON line per file: {file, conforms, results} or {file, error}')
    .addHelpText('after', '\nExit status: 0 when every file conforms, 1 when any does not or cannot be read.')
    .action(async (files: string[], options: { json?: boolean }) => {
      const { validateFiles } = await import('./validate.js');
      process.exitCode = await validateFiles(files, options.json === true);
    });

  cli
    .command('export')
    .description('Write everything the node holds to FILE (reads the data dir without changing it; safe beside a running node)')
    .argument('<file>', 'FILE ending in .trig writes TriG, else N-Quads')
    .option('--include-secrets', 'keep notification secrets (left out by default)')
    .action(async (file: string, options: { includeSecrets?: boolean }) => {
      const { runExport } = await import('./export.js');
      console.log(JSON.stringify(await runExport(file, { includeSecrets: options.includeSecrets === true }, root.nodeData())));
    });

  cli
    .command('import')
    .description('Load an export into an empty data dir (or an empty SPARQL server with DATASPACE_STORE=sparql)')
    .argument('<file>', 'N-Quads, or TriG when FILE ends in .trig')
    .action(async (file: string) => {
      const { runImport } = await import('./import.js');
      console.log(JSON.stringify(await runImport(file, root.nodeData())));
    });

  const user = cli.command('user').description('Manage the users listed in a seed file');
  user
    .command('add')
    .description('Add a user to the seed file with a scrypt hash of the password read from standard input; takes effect at the next start')
    .requiredOption('-e, --email <email>', "the user's email (their login)")
    .requiredOption('-o, --organisation <did>', "the organisation's did:web, listed in the seed")
    .option('-s, --seed <file>', 'seed file (default: DATASPACE_SEED)')
    .action(async (options: { email: string; organisation: string; seed?: string }) => {
      const seed = options.seed ?? textFrom(process.env, 'DATASPACE_SEED');
      if (!seed) throw new ConfigError('Name the seed file with --seed or DATASPACE_SEED');
      const { addUser } = await import('./user-add.js');
      await addUser(seed, { email: options.email, organisation: options.organisation, password: await passwordFromStdin() });
      console.log(JSON.stringify({ seed, added: options.email.toLowerCase() }));
    });

  cli
    .command('hash-password')
    .description('Print the scrypt hash of the password read from standard input, for a seed file\'s "passwordHash"')
    .action(async () => {
      const { hashPassword } = await import('../../core/auth/passwords.js');
      console.log(await hashPassword(await passwordFromStdin()));
    });

  for (const delegated of DELEGATED) {
    cli
      .command(delegated.name)
      .description(delegated.description)
      .helpOption(false)
      .allowUnknownOption()
      .argument('[args...]')
      .action(async (args: string[]) => {
        const module = (await import(delegated.module)) as { main(argv: string[]): Promise<number> };
        process.exitCode = await module.main(args);
      });
  }
  return cli;
}

/** Runs the command line; resolves with the exit status. */
export async function run(argv: string[], root: CliRoot): Promise<number> {
  try {
    await program(root).parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    // --help and --version arrive here too, with exit code 0; usage mistakes with 1 (commander's), made 2.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof ConfigError || error instanceof SeedError) {
      console.error(error.message);
      return 1;
    }
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 1;
  }
}
