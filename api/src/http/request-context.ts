import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Language } from '@pm/shared';
import type { Db } from '../db/database-types';
import type { AppServices } from '../app-services';
import type { Caller, TenantScope } from './caller';

// Caller and TenantScope have their own file, so the token service can name a caller without
// depending on the request context (and through it on app-services, which holds the token service).
export type { Caller, TenantScope };

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
