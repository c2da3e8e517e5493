// digest-header ships no types; only the call the node makes.
declare module 'digest-header' {
  /** The Authorization header answering `wwwAuthenticate` (a Digest challenge), or '' when it is not one. */
  function digestAuthHeader(method: string, uri: string, wwwAuthenticate: string, userpass: string): string;
  export default digestAuthHeader;
}
