/** The roles an organisation can have in the data space. */
export type Role = 'freightForwarder' | 'borderAgency' | 'locationOperator';

/**
 * The calling organisation, as far as deciding what it may do and see. The registry's Organisation
 * (registry/registry.ts) is this and its notification endpoint.
 */
export interface CallerOrganisation {
  id: string;
  name: string;
  role: Role;
  country?: string;
  locations: string[];
}

/** Who is calling: the logged-in user and their organisation. */
export interface Principal {
  email: string;
  org: CallerOrganisation;
}
