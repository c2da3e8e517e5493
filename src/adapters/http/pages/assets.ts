import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import express, { type RequestHandler } from 'express';
import { projectRoot } from '../../../core/project-paths.js';

const require = createRequire(import.meta.url);

/** The folder an npm package keeps its files in, found through node's resolution (hoisting may move it). */
export function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

/** The node's own page scripts and styles (public/). */
export const publicDir = resolve(projectRoot, 'public');

/** Serves files from `dir` without directory listings or index pages; browsers may keep them a day. */
export function staticFiles(dir: string): RequestHandler {
  return express.static(dir, { index: false, redirect: false, maxAge: '1d', fallthrough: true });
}
