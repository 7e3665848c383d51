import { listPage, WorkStatus, type WorkKind } from '@pm/shared';
import type { Tx } from '../../db/open-database';
import { AppError } from '../../http/app-error';
import type { AuthedContext } from '../../http/request-context';
import { notify, pushAfterCommit } from '../message/notify';
import { withPushes } from '../message/push-outbox';
import { listingStaff } from './work-orders.recipients';
import type { JsonText } from '../../http/json-text';
import { findWork, insertReply, listWork, moveStatus, workHead, type WorkFilter } from './work-orders.repository';
import { KeptById } from './kept-by-id';
import { KeptLists } from './kept-lists';

/** The staff's side of complaints and event work orders: read, deal with, complete, reply. */

// Reads that are the repository's query as it stands (list, dashboard, totals, replies).
export {
  dashboardWork,
  listReplies,
  readStatusTotals,
  statusTotals,
  statusTotalsSql,
  workStats,
} from './work-orders.repository';

/** Runs a change and its notifications in one transaction; pushes leave after the commit. */
function inTransaction<T>(ctx: AuthedContext, work: (tx: Tx) => Promise<T>): Promise<T> {
  return withPushes(ctx.db, ctx.services.realtime, work, (err) => ctx.log.error({ err }, 'push after commit failed'));
}

/** A person id in the body must be the caller's own: nobody records a step in someone else's name. */
function assertSelf(ctx: AuthedContext, personId: number | undefined): void {
  if (personId !== undefined && personId !== ctx.caller.personId) throw AppError.badRequest('errors.notYourself');
}

/** One of the caller's estate (a WorkDetail, as PostgreSQL's JSON text); 404 when it is not there. */
export async function getWork(ctx: AuthedContext, k: WorkKind, id: number): Promise<JsonText> {
  // Kept per record (kept-by-id.ts); the route checked the caller's token and permission already.
  // Never a read inside a transaction (it may see what is not committed yet).
  const kept = ctx.db === ctx.services.db && ctx.services.keptById?.max ? ctx.services.keptById : undefined;
  if (!kept) return readWork(ctx, k, id);
  return kept.load(KeptById.key(k, ctx.tenant, id), () => readWork(ctx, k, id));
}

async function readWork(ctx: AuthedContext, k: WorkKind, id: number): Promise<JsonText> {
  const found = await findWork(ctx.db, k, ctx.tenant, id);
  if (!found) throw AppError.notFound();
  return found;
}

/**
 * A page of the list and its total (shared `listPage`: rows as PostgreSQL's JSON text). Kept per
 * (kind, tenant, normalised query) in kept-lists.ts; the route checked the caller's token and
 * permission already. Never a read inside a transaction (it may see what is not committed yet).
 */
export async function getListPage(ctx: AuthedContext, k: WorkKind, filter: WorkFilter, page: number, limit: number) {
  const kept = ctx.db === ctx.services.db && ctx.services.keptLists?.max ? ctx.services.keptLists : undefined;
  // No closure for a page not kept (issue 34, part 34: under tsx a named one made per call is also named by a helper).
  if (!kept) return readListPage(ctx, k, filter, page, limit);
  return kept.load(KeptLists.key(k, ctx.tenant, { filter, page, limit }), () =>
    readListPage(ctx, k, filter, page, limit),
  );
}

async function readListPage(ctx: AuthedContext, k: WorkKind, filter: WorkFilter, page: number, limit: number) {
  const { rows, total } = await listWork(ctx.db, k, ctx.tenant, filter, limit, (page - 1) * limit);
  // The rows are PostgreSQL's JSON text, answered as it is (JsonText): `list` holds it in the array's place.
  return listPage(rows as unknown as unknown[], total, { page, limit });
}

/**
 * Deal with (1 → 2) or complete (2 → 3). The status check and the change are one conditional
 * UPDATE, so of two staff dealing at once exactly one wins and the other gets 409. The estate's
 * staff who list these and the reporter are pushed the new status.
 */
export async function advance(
  ctx: AuthedContext,
  k: WorkKind,
  id: number,
  from: 1 | 2,
  step: { note: string; img?: string; personId?: number },
) {
  assertSelf(ctx, step.personId);
  await inTransaction(ctx, async (tx) => {
    const head = await workHead(tx, k, ctx.tenant, id);
    if (!head) throw AppError.notFound();
    const moved = await moveStatus(tx, k, ctx.tenant, id, from, {
      personId: ctx.caller.personId,
      note: step.note,
      img: step.img || null,
    });
    if (!moved) throw AppError.conflict(from === 1 ? 'errors.workNotUntreated' : 'errors.workNotProcessing');
    const staff = await listingStaff(tx, k, ctx.tenant.housingEstateId);
    pushAfterCommit(tx, [...staff, head.report_person_id], {
      channelType: k.channel,
      dataId: id,
      status: from === 1 ? WorkStatus.processing : WorkStatus.completed,
      name: head.name,
    });
  });
  return getWork(ctx, k, id);
}

/**
 * A staff reply: stored with the caller's company type (a companyType in the body is ignored);
 * the reporter gets a reply message (13 / 11).
 */
export async function replyAsStaff(
  ctx: AuthedContext,
  k: WorkKind,
  id: number,
  body: { content: string; img?: string; voice?: string; personId?: number; companyType?: number },
) {
  assertSelf(ctx, body.personId);
  return inTransaction(ctx, async (tx) => {
    const head = await workHead(tx, k, ctx.tenant, id);
    if (!head) throw AppError.notFound();
    const reply = await insertReply(tx, k, ctx.tenant, id, {
      personId: ctx.caller.personId,
      content: body.content,
      img: body.img || null,
      voice: body.voice || null,
      // The caller's company says who replied (committee or property company), never the body.
      companyType: ctx.caller.companyType,
    });
    await notify(tx, {
      ...ctx.tenant,
      messageType: k.replyMessage,
      channelType: k.channel,
      dataId: id,
      recipients: [head.report_person_id],
      personTriggerId: ctx.caller.personId,
      name: head.name,
      unitId: head.unit_id,
      carSpaceId: head.car_space_id,
      shopId: head.shop_id,
    });
    return reply;
  });
}
