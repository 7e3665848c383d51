import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Language } from '@pm/shared';
import type { Db } from '../db/open-database';
import type { AppServices } from '../app-services';

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

export interface PublicContext {
  requestId: string;
  lang: Language;
  log: Logger;
  db: Db;
  services: AppServices;
  /** Present when a valid bearer token came along (public routes may still receive one). */
  caller: Caller | null;
  tenant: TenantScope | null;
  /** Translates a locales key into the request's language. */
  t(key: string, params?: Record<string, string | number>): string;
  req: Request;
  res: Response;
}

/** The context of a route that needs a token: caller and tenant are always set. */
export interface AuthedContext extends PublicContext {
  caller: Caller;
  tenant: TenantScope;
  /** The raw bearer token (for sign-out). Never log it. */
  token: string;
}
