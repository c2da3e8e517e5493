import type { Request, Response } from 'express';
import type { Quad } from '@rdfjs/types';
import { writeRdf, type RdfFormat } from '../views/rdf-formats.js';
import { negotiate, offeredList, type Offer } from './negotiate.js';
import { NotAcceptable } from './errors.js';

/** The offer the Accept header picks among `offers`, or 406 naming every offered type: never a default in disguise. */
export function chooseOffer<T extends Offer>(req: Request, res: Response, offers: readonly T[]): T {
  res.vary('Accept');
  const chosen = negotiate(req.headers.accept, offers);
  if (!chosen) throw new NotAcceptable(`This resource is available as ${offeredList(offers)}`);
  return chosen;
}

/** Sends quads in a negotiated RDF syntax with a strong ETag; express answers 304 to a matching If-None-Match. */
export async function sendRdf(res: Response, quads: readonly Quad[], format: RdfFormat): Promise<void> {
  const out = await writeRdf(quads, format);
  res.set({ 'content-type': out.contentType, etag: out.etag }).send(out.body);
}
