import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** True when `moduleUrl` is the program being run (also through an npx / node_modules/.bin symlink), not an import. */
export function isMain(moduleUrl: string): boolean {
  if (process.argv[1] === undefined) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/**
 * Output to a closed pipe (`dataspace validate … | head`) ends the program quietly instead of with an
 * EPIPE stack trace: the reader has everything it wanted.
 */
export function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
}

/** Runs `main` with the program's arguments when `moduleUrl` is the program: its answer is the exit code, a throw exits 2. */
export function runAsProgram(moduleUrl: string, main: (argv: string[]) => Promise<number>): void {
  if (!isMain(moduleUrl)) return;
  quietOnClosedPipe();
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 2;
    },
  );
}
