import { and, eq, isNull, sum } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db/open-database';
import { imGroup, imGroupMember } from '../../db/schema';
import { defineRoute, type ApiModule } from '../../http/define-route';
import type { TenantScope } from '../../http/request-context';

/** Unread chat records of a person over every group of the estate they are still in. */
export async function chatUnreadTotal(db: DbOrTx, personId: number, tenant: TenantScope): Promise<number> {
  const [row] = await db
    .select({ total: sum(imGroupMember.unread) })
    .from(imGroupMember)
    .innerJoin(imGroup, eq(imGroup.id, imGroupMember.groupId))
    .where(
      and(
        eq(imGroupMember.personId, personId),
        isNull(imGroupMember.quitAt),
        eq(imGroup.dismissed, false),
        eq(imGroup.companyId, tenant.companyId),
        eq(imGroup.housingEstateId, tenant.housingEstateId),
      ),
    );
  return Number(row?.total ?? 0);
}

/**
 * The chat unread total the sidebar badge shows (SPEC §7 "Instant messaging"). The rest of
 * instant messaging arrives with its own issue; the gateway loads this counter at every upstream open.
 */
export const chatUnreadModule: ApiModule = {
  name: 'chat-unread',
  counters: async (db, tenant, caller) => ({ chatUnread: await chatUnreadTotal(db, caller.personId, tenant) }),
  routes: [
    defineRoute({
      method: 'post',
      path: '/im/chatrecord/query/total/unread',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary: 'Unread chat records of the caller over every group they are still in',
      response: z.number(),
      handler: async (ctx) => chatUnreadTotal(ctx.db, ctx.caller.personId, ctx.tenant),
    }),
  ],
};
