import { sql } from 'drizzle-orm';
import { ADMIN_ROLE, type Permission } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { queryRows } from '../../db/sql';

/**
 * The general rule of who receives a push: staff by permission. Each domain's own rules live in
 * its folder (`<domain>/<domain>.recipients.ts`: work-orders, person, disaster, im) and build on it.
 */

/** Enabled staff accounts of the estate whose role grants the permission (role ADMIN grants all). */
export async function staffWithPermission(
  db: DbOrTx,
  housingEstateId: number,
  permission: Permission,
): Promise<number[]> {
  const rows = await queryRows<{ person_id: number }>(
    db,
    sql`select distinct a.person_id
        from account a
        join sys_role r on r.id = a.role_id
        where a.housing_estate_id = ${housingEstateId} and a.kind = 'staff' and a.enabled
          and (upper(r.role_value) like ${`%${ADMIN_ROLE}%`}
               or exists (select 1 from sys_role_menu rm join sys_menu m on m.id = rm.menu_id
                          where rm.role_id = r.id and m.perms = ${permission}))`,
  );
  return rows.map((r) => r.person_id);
}
