import { createHash } from 'node:crypto';

/** A JSON answer serialised once, with an entity tag of its bytes, so a cached read is sent as it is. */
export interface JsonBody {
  bytes: Buffer;
  /** Strong: the same tag always means the same bytes. Express answers If-None-Match with 304 by it. */
  etag: string;
}

export function jsonBody(value: unknown): JsonBody {
  const bytes = Buffer.from(JSON.stringify(value), 'utf8');
  return { bytes, etag: `"${createHash('sha1').update(bytes).digest('base64url')}"` };
}
