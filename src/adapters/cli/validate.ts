#!/usr/bin/env node
/**
 * dataspace-validate FILE...: validates payloads offline against the node's shapes, without a
 * running node and without storing anything. Each FILE is a JSON activity (Create, Update, Add) or
 * a bare Consignment, SupplyChainEvent or Document. Prints each file's verdict and violations;
 * exits 1 when any file does not conform or cannot be read, 2 on bad usage.
 */
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { checkEnvelope } from '../../core/activities/envelope.js';
import { isObject } from '../../core/util/json.js';
import { toQuads } from '../../core/activities/parse.js';
import { HttpError } from '../../core/errors.js';
import { createPayloadValidator } from '../../core/validation/index.js';
import type { PayloadValidator, ValidationResult } from '../../core/validation/index.js';
import { runAsProgram } from './is-main.js';

const USAGE = `Usage: dataspace-validate [--json] FILE...   (FILE - reads standard input)

Validates supply-chain data-space payloads (an activity, or a bare Consignment,
SupplyChainEvent or Document, as JSON-LD) against the node's SHACL shapes, offline.

  --json   print one JSON line per file: {file, conforms, results} or {file, error}
  --help   show this text

Exit status: 0 when every file conforms, 1 when any does not or cannot be read.`;

export interface FileVerdict {
  file: string;
  conforms: boolean;
  results?: ValidationResult[];
  /** Why the file could not be validated (not JSON, envelope error, JSON-LD that loses data). */
  error?: { status?: number; message: string; details?: Record<string, unknown> };
}

const ACTIVITY_TYPES = ['Create', 'Update', 'Add'];

/** An activity is checked like the inbox does (400 cases) before its shapes; bare objects are not. */
function looksLikeActivity(json: unknown): boolean {
  if (!isObject(json)) return false;
  const type = json.type ?? json['@type'];
  return (typeof type === 'string' && ACTIVITY_TYPES.includes(type)) || 'actor' in json || 'object' in json;
}

export async function validateFile(validator: PayloadValidator, file: string): Promise<FileVerdict> {
  let json: unknown;
  try {
    json = JSON.parse(file === '-' ? await text(process.stdin) : await readFile(file, 'utf8'));
  } catch (error) {
    return { file, conforms: false, error: { message: `cannot be read as JSON: ${(error as Error).message}` } };
  }
  try {
    if (looksLikeActivity(json)) checkEnvelope(json);
    const report = await validator.validate(await toQuads(json));
    return { file, conforms: report.conforms, results: report.results };
  } catch (error) {
    if (error instanceof HttpError) {
      return { file, conforms: false, error: { status: error.status, message: error.message, details: error.properties } };
    }
    throw error;
  }
}

function describe(verdict: FileVerdict): string {
  if (verdict.error) {
    const status = verdict.error.status ? ` (the inbox answers ${verdict.error.status})` : '';
    const details = verdict.error.details ? `\n  ${JSON.stringify(verdict.error.details)}` : '';
    return `${verdict.file}: REJECTED${status}: ${verdict.error.message}${details}`;
  }
  const results = verdict.results ?? [];
  const count = (severity: string) => results.filter((r) => r.severity === severity).length;
  const violations = count('Violation');
  const warnings = count('Warning') + count('Info');
  const summary = verdict.conforms
    ? `conforms${warnings > 0 ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : ''}`
    : `does not conform (${violations} violation${violations === 1 ? '' : 's'}${warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''})`;
  const lines = [`${verdict.file}: ${summary}`];
  for (const r of results) {
    const where = r.path ?? r.focusNode;
    const value = r.value !== null && r.value !== '' ? ` = ${JSON.stringify(r.value)}` : '';
    lines.push(`  ${r.severity.padEnd(9)} ${where}${value}`);
    lines.push(`            ${r.message} [${r.sourceShape}; at ${r.focusNode}]`);
  }
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const files = argv.filter((a) => a !== '--json');
  const unknown = files.filter((f) => f.startsWith('--'));
  if (files.length === 0 || unknown.length > 0) {
    console.error(unknown.length > 0 ? `Unknown option ${unknown[0]}\n\n${USAGE}` : USAGE);
    return 2;
  }
  return validateFiles(files, json);
}

/** Validates each file (`-` = standard input) and prints its verdict; 0 when all conform, else 1. */
export async function validateFiles(files: string[], json: boolean): Promise<number> {
  const validator = await createPayloadValidator();
  let failed = 0;
  for (const file of files) {
    const verdict = await validateFile(validator, file);
    if (!verdict.conforms) failed++;
    console.log(json ? JSON.stringify(verdict) : describe(verdict));
  }
  if (!json && files.length > 1) console.log(`\n${files.length - failed} of ${files.length} files conform`);
  return failed > 0 ? 1 : 0;
}

runAsProgram(import.meta.url, main);
