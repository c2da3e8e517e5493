import type { Request, Response } from 'express';
import { ACTIVITYSTREAMS_CONTEXT_URL } from '../../core/rdf/namespaces.js';
import { servedChangesContext } from '../../core/rdf/document-loader.js';
import { chooseOffer } from './rdf-response.js';

/**
 * The media types an ActivityStreams collection is answered in, by Accept: ActivityStreams 2.0's own
 * type first (also for `*\/*` and no Accept), JSON-LD with the ActivityStreams profile as ActivityPub
 * readers ask for it, and plain JSON for clients that name only that. The body is the same in each.
 */
const FEED_OFFERS = [
  { mediaType: 'application/activity+json' },
  { mediaType: 'application/ld+json', profile: ACTIVITYSTREAMS_CONTEXT_URL },
  { mediaType: 'application/json' },
] as const;

/** The media types, for the API reference. */
export const FEED_MEDIA_TYPES = FEED_OFFERS.map((o) => o.mediaType);

/** ActivityStreams, then the node's own terms, so that a JSON-LD reader expands every field. */
export const feedContext = (baseUrl: string): string[] => [ACTIVITYSTREAMS_CONTEXT_URL, servedChangesContext(baseUrl)];

/** Sends an ActivityStreams document in the media type the Accept header picks, or 406 naming the three. */
export function sendActivityStreams(req: Request, res: Response, body: Record<string, unknown>): void {
  const offer = chooseOffer(req, res, FEED_OFFERS);
  const type = 'profile' in offer ? `${offer.mediaType}; profile="${offer.profile}"` : offer.mediaType;
  res.set('content-type', `${type}; charset=utf-8`).send(JSON.stringify(body));
}
