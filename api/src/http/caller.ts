/** Who is calling: resolved from the bearer token by the token step. */
export interface Caller {
  tokenId: number;
  accountId: number;
  personId: number;
  companyId: number;
  housingEstateId: number;
  companyType: number;
  roleId: number | null;
  roleValue: string;
  kind: 'staff' | 'resident';
  /** Permission codes of the role's menus; every code for an ADMIN role. */
  perms: Set<string>;
}

/** The company and estate every query of the request is limited to (the caller's). */
export interface TenantScope {
  companyId: number;
  housingEstateId: number;
}
