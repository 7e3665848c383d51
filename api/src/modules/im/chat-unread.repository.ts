import { and, eq, isNull, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../db/open-database';
import { imGroup, imGroupMember } from '../../db/schema';
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
