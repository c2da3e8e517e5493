import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const SECRET_PREFIX = 'whsec_';
const SECRET_FORM = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** Why a notification secret is unusable, or undefined when it is a `whsec_` secret with a base64 key. */
export function secretProblem(secret: string): string | undefined {
  if (!SECRET_FORM.test(secret)) return 'secret must be "whsec_" followed by a base64 key';
  try {
    new Webhook(secret);
    return undefined;
  } catch {
    return 'secret must be "whsec_" followed by a base64 key (the key does not decode)';
  }
}

/** A fresh secret with a 32-byte key, for an endpoint registered without one. */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * Standard Webhooks headers for one attempt: webhook-id (stable across retries), webhook-timestamp (this
 * attempt, in seconds) and webhook-signature `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`,
 * keyed with the base64-decoded part of the secret after `whsec_`. Without a secret nothing is signed.
 */
export function webhookHeaders(id: string, body: string, secret: string | undefined, at: Date): Record<string, string> {
  const headers: Record<string, string> = {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
  };
  if (secret !== undefined) headers['webhook-signature'] = new Webhook(secret).sign(id, at, body);
  return headers;
}
