import { BadRequest, Unprocessable } from '../errors.js';
import { isBundledContext } from '../rdf/document-loader.js';
import { isObject, walkEntries } from '../util/json.js';

/**
 * Spec 2.1-2.7: the activity's @context is the ActivityStreams context and every object's is the D23B
 * context. Only those bundled URLs are contexts: an inline context object could define any term (or
 * an @vocab catching every unknown term, or @import another context) and so store predicates no
 * shape knows, which the unknown-term rule exists to prevent.
 */

/**
 * Spec 7.1: a missing required field is 400; @context is required at the activity, its actor (2.2),
 * its object and its target (2.3). Without it the actor's and target's terms would not expand (under
 * ActivityStreams `registeredId` means nothing), so the message names the entry to add.
 */
export function requireContexts(body: Record<string, unknown>, object: Record<string, unknown> | undefined): void {
  if (!('@context' in body)) throw new BadRequest('The activity has no @context; it must be ["https://www.w3.org/ns/activitystreams"]');
  for (const part of ['actor', 'object', 'target'] as const) {
    const value = part === 'object' ? object : body[part];
    if (isObject(value) && !('@context' in value))
      throw new BadRequest(`The activity's ${part} has no @context (${part}.@context); it must be the D23B context URL`);
  }
}

/** A bare payload (on /validate) needs its @context too. */
export function requireContext(body: Record<string, unknown>, what: string): void {
  if (!('@context' in body)) throw new BadRequest(`The ${what} has no @context; it must be a bundled context URL`);
}

/**
 * Every @context anywhere in the payload is a bundled context URL or an array of them; anything else
 * is refused with 422 naming the entry.
 */
export function checkContextEntries(json: unknown): void {
  walkEntries(json, (key, value, at) => {
    if (key !== '@context') return true;
    checkContext(value, at);
    return false;
  });
}

function checkContext(value: unknown, at: string): void {
  const entries = Array.isArray(value) ? value : [value];
  entries.forEach((entry, i) => {
    const where = Array.isArray(value) ? `${at}[${i}]` : at;
    if (typeof entry === 'string') {
      if (!isBundledContext(entry)) {
        refuse(
          where,
          `${where} is ${JSON.stringify(entry)}: JSON-LD context ${entry} is not bundled with this node; only the D23B and ActivityStreams contexts are accepted`,
          entry,
        );
      }
      return;
    }
    if (isObject(entry)) {
      const keyword = ['@vocab', '@import'].find((k) => k in entry);
      if (keyword)
        refuse(
          where,
          `${where} uses ${keyword} (${JSON.stringify(entry[keyword])}); only the bundled context URLs are accepted as contexts`,
          typeof entry[keyword] === 'string' ? entry[keyword] : keyword,
        );
      refuse(
        where,
        `${where} is an inline context object (defining ${
          Object.keys(entry)
            .map((k) => JSON.stringify(k))
            .join(', ') || 'nothing'
        }); only the bundled context URLs are accepted as contexts`,
        'inline context',
      );
    }
    refuse(where, `${where} is ${JSON.stringify(entry)}; a context entry must be a bundled context URL`, String(entry));
  });
}

function refuse(where: string, message: string, entry: string): never {
  // `context` names the refused entry (a URL when there is one), `at` where it sits in the payload.
  throw new Unprocessable(message, { context: entry, at: where });
}
