/** The roles an organisation can have in the data space. */
export type Role = 'freightForwarder' | 'borderAgency' | 'locationOperator';

/**
 * The calling organisation, as far as deciding what it may do and see. The registry's Organisation
 * (core/registry/registry.ts) is this and its notification endpoint.
 */
export interface CallerOrganisation {
  id: string;
  name: string;
  role: Role;
  country?: string;
  locations: string[];
}

/** Who is calling: the logged-in user (or machine client) and their organisation. */
export interface Principal {
  /** The user's email, or the machine client's id. */
  email: string;
  org: CallerOrganisation;
  /** An organisation admin: manages its organisation's users and clients. */
  admin?: boolean;
  /** A machine client (OAuth 2.0 client credentials) rather than a person. */
  client?: boolean;
  /** The token of this request and its session (the login it was refreshed from): what a logout ends. */
  token?: { jti: string; expiry: number; sid?: string; auth?: number };
}
