/**
 * Content negotiation over an Accept header, with what express's req.accepts lacks for RDF clients:
 * parameters that do not change the representation (charset) are ignored instead of failing the match,
 * a JSON-LD `profile` picks between representations, and each offer can carry aliases
 * (text/x-nquads, application/x-trig, ...). Pure: tested alone with tables.
 */

export interface Offer {
  /** The media type answered in Content-Type. */
  mediaType: string;
  /** Other names clients use for the same syntax. */
  aliases?: readonly string[];
  /** A JSON-LD profile IRI this offer satisfies; ranges naming another profile skip it. */
  profile?: string;
}

interface MediaRange {
  type: string;
  params: Map<string, string>;
  q: number;
  index: number;
}

/** Parameters that say nothing about which representation is wanted. */
const NEUTRAL_PARAMS = new Set(['charset', 'q']);

function unquote(value: string): string {
  const v = value.trim();
  return v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
}

/** Splits on a separator outside quoted strings (profile IRIs may hold commas or semicolons). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header.trim() === '') return [{ type: '*/*', params: new Map(), q: 1, index: 0 }];
  const ranges: MediaRange[] = [];
  splitOutsideQuotes(header, ',').forEach((part, index) => {
    const [typePart, ...paramParts] = splitOutsideQuotes(part, ';');
    const type = typePart.trim().toLowerCase();
    if (!/^[^/\s]+\/[^/\s]+$/.test(type)) return;
    const params = new Map<string, string>();
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const name = p.slice(0, eq).trim().toLowerCase();
      const value = unquote(p.slice(eq + 1));
      if (name === 'q') {
        const n = Number(value);
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 1;
      } else params.set(name, value);
    }
    ranges.push({ type, params, q, index });
  });
  return ranges;
}

/** How specifically a range names an offer (higher wins), or -1 when it does not match it. */
function specificity(range: MediaRange, offer: Offer): number {
  const names = [offer.mediaType, ...(offer.aliases ?? [])];
  let score: number;
  if (names.includes(range.type)) score = 3;
  else if (range.type.endsWith('/*') && names.some((n) => n.startsWith(range.type.slice(0, -1)))) score = 2;
  else if (range.type === '*/*') score = 1;
  else return -1;
  const profile = range.params.get('profile');
  if (profile !== undefined && score === 3) {
    // A profile is a space-separated list of IRIs: the offer must be one of them.
    if (!offer.profile || !profile.split(/\s+/).includes(offer.profile)) return -1;
    score += 1;
  }
  for (const name of range.params.keys()) if (!NEUTRAL_PARAMS.has(name) && name !== 'profile') return -1;
  return score;
}

/**
 * The offer the client prefers: for each offer the most specific matching range gives its quality;
 * the highest quality wins, then the client's order, then the order of the offers (the server's
 * preference, so `*\/*` and a missing header get the first offer). Undefined when nothing is acceptable.
 */
export function negotiate<T extends Offer>(header: string | undefined, offers: readonly T[]): T | undefined {
  const ranges = parseAccept(header);
  let best: { offer: T; q: number; index: number; order: number } | undefined;
  offers.forEach((offer, order) => {
    let match: { q: number; index: number; score: number } | undefined;
    for (const range of ranges) {
      const score = specificity(range, offer);
      if (score < 0) continue;
      if (!match || score > match.score) match = { q: range.q, index: range.index, score };
    }
    if (!match || match.q <= 0) return;
    if (!best || match.q > best.q || (match.q === best.q && match.index < best.index)) best = { offer, q: match.q, index: match.index, order };
  });
  return best?.offer;
}

/** The list a 406 names, so a client can ask again. */
export function offeredList(offers: readonly Offer[]): string {
  return offers.map((o) => (o.profile ? `${o.mediaType}; profile="${o.profile}"` : o.mediaType)).join(', ');
}
