import { closeSync, fsyncSync, openSync } from 'node:fs';

/** Makes a created, renamed or deleted directory entry survive a crash. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
