import digestAuthHeader from 'digest-header';

/**
 * The node's credentials for its SPARQL server (DATASPACE_SPARQL_USER, _PASSWORD): HTTP Basic until the
 * server asks for Digest, then Digest. Virtuoso's authenticated endpoint (/sparql-auth) takes only
 * Digest; Fuseki, GraphDB and Oxigraph server take Basic. The last Digest challenge is answered again
 * for every request (its nonce with a new count), so a request costs one round trip, not two; a 401 to
 * that (a nonce the server let go) brings a new challenge, answered once more. Virtuoso answers Basic
 * with a bare 401: the request is then sent without credentials, which brings its challenge.
 */
export class ServerAuth {
  private challenge: string | undefined;
  private basicRefused = false;
  private readonly basic: string;

  constructor(
    private readonly user: string,
    private readonly password: string,
  ) {
    this.basic = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }

  /** The Authorization header for a POST to `url` (none: asking the server for its challenge). */
  header(url: string): string | undefined {
    if (this.challenge === undefined) return this.basicRefused ? undefined : this.basic;
    const { pathname, search } = new URL(url);
    return digestAuthHeader('POST', `${pathname}${search}`, this.challenge, `${this.user}:${this.password}`) || this.basic;
  }

  /**
   * Told a 401 and its WWW-Authenticate: true when the request is worth sending again (a Digest
   * challenge other than the one just answered, or the first); false when the credentials are refused.
   */
  refused(wwwAuthenticate: string | undefined, answered: string | undefined): boolean {
    if (wwwAuthenticate === undefined || !/^\s*Digest\s/i.test(wwwAuthenticate)) {
      // Basic refused without a word: ask once more without credentials, for a challenge.
      if (answered?.startsWith('Basic ') !== true || this.basicRefused) return false;
      this.basicRefused = true;
      return true;
    }
    const again = !answered?.startsWith('Digest ') || wwwAuthenticate !== this.challenge || /stale\s*=\s*"?true/i.test(wwwAuthenticate);
    this.challenge = wwwAuthenticate;
    return again;
  }
}
