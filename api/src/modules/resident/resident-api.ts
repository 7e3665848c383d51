import type { Db } from '../../db/open-database';
import { AppError } from '../../http/app-error';
import type { AuthedContext } from '../../http/request-context';
import type { PushSink } from '../message/push-outbox';

/**
 * What every resident call shares (DESIGN §5, the mobile app's calls). The calls themselves
 * live in their domains' folders (work-orders, person, disaster, announcement); each needs a
 * resident's token (same /oauth/token) — a staff token gets 403 — and writes and notifies
 * exactly as the console's own changes do.
 */

/** What the resident use cases need: the database, where pushes go, and who is calling. */
export interface ResidentDeps {
  db: Db;
  realtime: PushSink;
  personId: number;
  /** The caller's account (per-account limits). */
  accountId: number;
  onPushError?: (err: unknown) => void;
}

/** The resident-only guard: a staff token gets 403. */
export function residentDeps(ctx: AuthedContext): ResidentDeps {
  if (ctx.caller.kind !== 'resident') throw AppError.forbidden();
  return {
    db: ctx.db,
    realtime: ctx.services.realtime,
    personId: ctx.caller.personId,
    accountId: ctx.caller.accountId,
    onPushError: (err) => ctx.log.error({ err }, 'push after commit failed'),
  };
}
