import type { Request, Response } from 'express';
import type { Quad } from '@rdfjs/types';
import { writeRdf, type RdfFormat, type RdfRepresentation } from '../../core/views/rdf-formats.js';
import { negotiate, offeredList, type Offer } from './negotiate.js';
import { NotAcceptable } from '../../core/errors.js';
import { servedD23bContext } from '../../core/rdf/document-loader.js';

/** The offer the Accept header picks among `offers`, or 406 naming every offered type: never a default in disguise. */
export function chooseOffer<T extends Offer>(req: Request, res: Response, offers: readonly T[]): T {
  res.vary('Accept');
  const chosen = negotiate(req.headers.accept, offers);
  if (!chosen) throw new NotAcceptable(`This resource is available as ${offeredList(offers)}`);
  return chosen;
}

/**
 * Whether If-None-Match names this entity tag (weak comparison, RFC 9110 13.1.2). Evaluated here rather
 * than by express's `fresh`, which ignores the condition when the request says `Cache-Control: no-cache`
 * (as fetch() does for every conditional request): the origin server still answers the condition.
 */
export function matchesIfNoneMatch(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/**
 * Sends quads in a negotiated RDF syntax with a strong ETag, or 304 when the client holds exactly these
 * bytes. Compacted JSON-LD names the node's own D23B context under `baseUrl`, so a client expands it
 * with what the node serves (/contexts/), nothing fetched from elsewhere.
 */
export async function sendRdf(req: Request, res: Response, quads: readonly Quad[], format: RdfFormat, baseUrl: string): Promise<void> {
  sendRepresentation(req, res, await writeRdf(quads, format, servedD23bContext(baseUrl)));
}

/** Sends RDF already written, with its strong ETag, or 304 when the client holds exactly these bytes. */
export function sendRepresentation(req: Request, res: Response, out: RdfRepresentation): void {
  res.set({ etag: out.etag });
  if (matchesIfNoneMatch(req, out.etag)) {
    res.status(304).end();
    return;
  }
  res.set({ 'content-type': out.contentType }).send(out.body);
}
