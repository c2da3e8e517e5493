import type { Request } from 'express';
import { ConfigError } from '../../core/config-values.js';
import { textFrom } from '../../core/settings/read.js';

/**
 * The origins a browser may name in `Origin` for a request to be this node's own page: the origin
 * the request itself reached (its Host, on the scheme it came in on), the base URL's, and the public
 * origins a proxy serves the node at (DATASPACE_PUBLIC_ORIGINS; behind a TLS proxy the node sees
 * http and the proxy's host, the browser names https). Nothing is derived from the base URL alone:
 * the node answers on 127.0.0.1 and localhost alike while the base URL names one of them.
 *
 * A forged Host gains nothing: a browser sends the cookie only to the host it was set for, so a page
 * of another site reaching the node under its own name carries no session.
 */
export class OwnOrigins {
  private readonly listed: ReadonlySet<string>;

  constructor(baseUrl: string, publicOrigins: readonly string[] = []) {
    this.listed = new Set([new URL(baseUrl).origin, ...publicOrigins]);
  }

  /** True when the request comes from no browser page (no Origin) or from a page of this node. */
  sameOrigin(req: Request): boolean {
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    if (this.listed.has(origin)) return true;
    const host = req.headers.host;
    return host !== undefined && origin === `${req.protocol}://${host}`;
  }
}

/** DATASPACE_PUBLIC_ORIGINS: comma-separated origins (scheme://host[:port]), each checked at start. */
export function readPublicOrigins(env: NodeJS.ProcessEnv): string[] {
  const raw = textFrom(env, 'DATASPACE_PUBLIC_ORIGINS') ?? '';
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((value) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw new ConfigError(
          `DATASPACE_PUBLIC_ORIGINS holds ${JSON.stringify(value)}, which is not an origin such as https://node.example`,
        );
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value.replace(/\/$/, '')) {
        throw new ConfigError(
          `DATASPACE_PUBLIC_ORIGINS holds ${JSON.stringify(value)}: give scheme://host[:port] only, such as https://node.example`,
        );
      }
      return url.origin;
    });
}
