import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/*
 * Positions handed to callers (list cursors, the change feed's cursors and `last`) sealed with
 * AES-256-GCM under a node key: in clear they carried the node's global sequence, so a participant
 * that may read nothing of another's counted that one's writes and timed them between two reads. A
 * fresh nonce per seal means two answers never compare either: the same position reads differently
 * each time, and only this node (or a replica with the same secret) can open it. A cursor altered in
 * any bit fails its tag and is refused as one the node did not issue.
 */

const NONCE = 12;
const TAG = 16;
/** Sealed cursors the node issues are ~60 characters; anything far longer is not one, and is not worked on. */
const MAX_CHARS = 256;
/** Every position sealed at this length (spaces after it), so a cursor's length does not tell how far the node's sequence is. */
const PADDED = 48;

let key: Buffer = randomBytes(32);

/**
 * The key, derived from the node's token secret (JWT_SECRET or the one kept in the data directory,
 * which the replicas of a set share), so cursors stay valid across restarts and between replicas. Until
 * it is set (unit tests) a random key of the process seals them.
 */
export function useCursorKey(secret: string): void {
  key = Buffer.from(hkdfSync('sha256', secret, 'dataspace cursor key', 'sealed cursors v1', 32));
}

export function seal(text: string): string {
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(text.padEnd(Math.ceil(text.length / PADDED) * PADDED, ' '), 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url');
}

/** The text sealed, or undefined when the cursor is not one this node sealed. */
export function unseal(cursor: string): string | undefined {
  if (cursor.length > MAX_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length <= NONCE + TAG) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE));
    decipher.setAuthTag(bytes.subarray(NONCE, NONCE + TAG));
    return Buffer.concat([decipher.update(bytes.subarray(NONCE + TAG)), decipher.final()])
      .toString('utf8')
      .trimEnd();
  } catch {
    return undefined;
  }
}
