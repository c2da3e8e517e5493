import type { Request, Response } from 'express';
import { BadRequest } from '../../core/errors.js';
import { seal, unseal } from '../../core/util/sealed-cursors.js';

export interface Page {
  afterSeq: number;
  limit: number;
}

/** Cursors are opaque: the last sequence number seen, sealed (sealed-cursors.ts), so pages never skip or repeat and count no one's writes. */
export function encodeCursor(seq: number): string {
  return seal(`s${seq}`);
}

export function decodeCursor(cursor: string): number {
  const match = /^s(\d{1,15})$/.exec(unseal(cursor) ?? '');
  if (!match) throw new BadRequest('cursor is not one this node issued');
  return Number(match[1]);
}

function single(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new BadRequest(`${name} must be given once, as a string`);
  return value;
}

/** The `limit` parameter: `defaultLimit` when absent. */
export function readLimit(req: Request, defaultLimit: number, maxLimit: number): number {
  const rawLimit = single(req, 'limit');
  if (rawLimit === undefined) return defaultLimit;
  if (!/^\d{1,6}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > maxLimit) {
    throw new BadRequest(`limit must be an integer from 1 to ${maxLimit}`);
  }
  return Number(rawLimit);
}

export function readPage(req: Request, defaultLimit: number, maxLimit: number): Page {
  const limit = readLimit(req, defaultLimit, maxLimit);
  const cursor = single(req, 'cursor');
  return { afterSeq: cursor === undefined || cursor === '' ? 0 : decodeCursor(cursor), limit };
}

/** Sets `Link: <...?cursor=...>; rel="next"` when there is a next page. */
export function linkNext(req: Request, res: Response, baseUrl: string, lastSeq: number | undefined, hasMore: boolean): void {
  if (!hasMore || lastSeq === undefined) return;
  linkNextCursor(req, res, baseUrl, encodeCursor(lastSeq));
}

/** Sets `Link: <...?cursor=...>; rel="next"`, the request's other parameters kept, for a cursor made by the list. */
export function linkNextCursor(req: Request, res: Response, baseUrl: string, cursor: string): void {
  const url = new URL(req.originalUrl, baseUrl);
  url.searchParams.set('cursor', cursor);
  res.set('Link', `<${url.pathname}${url.search}>; rel="next"`);
}

export function queryString(req: Request, name: string): string | undefined {
  return single(req, name);
}
