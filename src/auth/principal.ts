import type { Organisation } from '../registry/registry.js';

/** Who is calling: the logged-in user and their organisation. */
export interface Principal {
  email: string;
  org: Organisation;
}
