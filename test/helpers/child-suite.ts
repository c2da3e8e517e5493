import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { embeddedOnlyPattern } from './embedded-only.js';

/**
 * Runs test files of the built suite (paths under dist/test) in a mocha of their own with `env` (an
 * external store's or a replica set's settings), leaving out the embedded-only tests: its exit code,
 * output and the passing/failing/pending lines.
 */
export async function runChildSuite(
  files: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; output: string; summary: string }> {
  const mocha = resolve(projectRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const child = spawn(
    process.execPath,
    [
      mocha,
      '--no-config',
      '--timeout',
      String(timeoutMs),
      '--exit',
      '--reporter',
      'dot',
      '--grep',
      embeddedOnlyPattern(),
      '--invert',
      '--require',
      resolve(projectRoot, 'dist', 'test', 'helpers', 'scratch-dirs.js'),
      ...files.map((file) => resolve(projectRoot, 'dist', 'test', file)),
    ],
    { env: { ...process.env, DATASPACE_LOG: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((ok) => child.once('exit', ok));
  const summary = output
    .split('\n')
    .filter((l) => /passing|failing|pending/.test(l))
    .join('; ')
    .trim();
  return { code, output, summary };
}
