import Negotiator from 'negotiator';

/**
 * Content negotiation over an Accept header, by `negotiator` (express's own): quality first, then
 * how specifically a range names the offer, then the client's order, then the order of the offers
 * (the server's preference, so `*\/*` and a missing header get the first offer). What RDF clients
 * need on top is said in the offers themselves: each offer is listed under its aliases
 * (text/x-nquads, application/x-trig, ...), with its JSON-LD `profile`, and with `charset=utf-8`, so
 * a range naming that charset matches it and one naming another does not (the node writes UTF-8).
 */

export interface Offer {
  /** The media type answered in Content-Type. */
  mediaType: string;
  /** Other names clients use for the same syntax. */
  aliases?: readonly string[];
  /** A JSON-LD profile IRI this offer satisfies; ranges naming another profile skip it. */
  profile?: string;
}

/** The names negotiator compares for one offer: each alias, bare and with the charset the node writes. */
function namesOf(offer: Offer): string[] {
  const profile = offer.profile ? `;profile="${offer.profile}"` : '';
  return [offer.mediaType, ...(offer.aliases ?? [])].flatMap((type) => [`${type}${profile}`, `${type}${profile};charset=utf-8`]);
}

/** The offer the client prefers, or undefined when nothing offered is acceptable. */
export function negotiate<T extends Offer>(header: string | undefined, offers: readonly T[]): T | undefined {
  const names: string[] = [];
  const owners: T[] = [];
  for (const offer of offers) {
    for (const name of namesOf(offer)) {
      names.push(name);
      owners.push(offer);
    }
  }
  // An empty Accept is no preference (RFC 9110 12.5.1 allows either reading; curl -H 'Accept:' means none).
  const accept = header === undefined || header.trim() === '' ? '*/*' : header;
  const [best] = new Negotiator({ headers: { accept } }).mediaTypes(names);
  return best === undefined ? undefined : owners[names.indexOf(best)];
}

/** The list a 406 names, so a client can ask again. */
export function offeredList(offers: readonly Offer[]): string {
  return offers.map((o) => (o.profile ? `${o.mediaType}; profile="${o.profile}"` : o.mediaType)).join(', ');
}
