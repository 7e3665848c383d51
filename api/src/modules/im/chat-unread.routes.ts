import { and, eq, isNull, sum } from 'drizzle-orm';
import { z } from 'zod';
import { imGroup, imGroupMember } from '../../db/schema';
import { defineRoute, type ApiModule } from '../../http/define-route';

/**
 * The chat unread total the sidebar badge shows (SPEC §7 "Instant messaging"). The rest of
 * instant messaging arrives with its own issue; the gateway loads this counter at every upstream open.
 */
export const chatUnreadModule: ApiModule = {
  name: 'chat-unread',
  routes: [
    defineRoute({
      method: 'post',
      path: '/im/chatrecord/query/total/unread',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary: 'Unread chat records of the caller over every group they are still in',
      response: z.number(),
      handler: async (ctx) => {
        const [row] = await ctx.db
          .select({ total: sum(imGroupMember.unread) })
          .from(imGroupMember)
          .innerJoin(imGroup, eq(imGroup.id, imGroupMember.groupId))
          .where(
            and(
              eq(imGroupMember.personId, ctx.caller.personId),
              isNull(imGroupMember.quitAt),
              eq(imGroup.dismissed, false),
              eq(imGroup.companyId, ctx.tenant.companyId),
              eq(imGroup.housingEstateId, ctx.tenant.housingEstateId),
            ),
          );
        return Number(row?.total ?? 0);
      },
    }),
  ],
};
