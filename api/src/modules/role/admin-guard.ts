import { sql } from 'drizzle-orm';
import { ADMIN_ROLE } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { queryRows } from '../../db/sql';
import { AppError } from '../../http/app-error';

/**
 * A company always keeps one enabled staff account with an ADMIN role (SPEC §6: role value
 * containing ADMIN). Every change that could take that away (a role changed or taken, a role's
 * value edited, a role deleted, an account disabled or deleted) runs in a transaction that first
 * calls {@link lockCompanyAccess} and, after its writes, {@link assertAdminRemains}: two
 * administrators demoting each other at once are serialised by the lock, and the second finds
 * no other administrator left and is refused (409), its writes rolled back.
 */
export async function lockCompanyAccess(tx: DbOrTx, companyId: number): Promise<void> {
  await tx.execute(sql`select id from company where id = ${companyId} for update`);
}

export async function assertAdminRemains(tx: DbOrTx, companyId: number): Promise<void> {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from account a join sys_role r on r.id = a.role_id
        where a.company_id = ${companyId} and a.kind = 'staff' and a.enabled
          and upper(r.role_value) like ${`%${ADMIN_ROLE}%`}`,
  );
  if ((row?.n ?? 0) === 0) throw new AppError(409, 'enterprise.errors.lastAdmin');
}
