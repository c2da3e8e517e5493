#!/usr/bin/env node
/**
 * dataspace (the bin): the command line's composition root. The program and its sub-commands live in
 * adapters/cli/; this file hands them the node's settings and the node itself, so no adapter reads
 * the settings or starts the node on its own.
 */
import './adapters/oxigraph/wasm/js-wasm-calls.js';
import { readConfig } from './config.js';
import { run } from './adapters/cli/dataspace.js';
import { quietOnClosedPipe } from './adapters/cli/is-main.js';

quietOnClosedPipe();
void run(process.argv.slice(2), { nodeData: readConfig, serve: () => import('./main.js') }).then((code) => {
  // `serve` keeps running; the others end when their work is done.
  process.exitCode = code;
});
