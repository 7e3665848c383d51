import { and, eq } from 'drizzle-orm';
import { WALL_BOARD_PERMISSION, WALL_PERMISSION } from '@pm/shared';
import type { DbOrTx } from '../db/open-database';
import * as s from '../db/schema';

/**
 * The demo wall screen (issue 22): the read-only role "Wall screen" (wall:view: the wall feed and
 * the alarm and work-order topics; checkin:view: the check-in duty board and its topic; nothing
 * that writes) and the account `wall` /
 * `wall123`, in the estate of the account `adminUsername`. A person with only this role who
 * signs in lands on /wall.
 */
export async function seedWallScreen(tx: DbOrTx, adminUsername: string, passwordHash: string): Promise<void> {
  const [admin] = await tx
    .select({ companyId: s.account.companyId, housingEstateId: s.account.housingEstateId })
    .from(s.account)
    .where(eq(s.account.username, adminUsername));
  if (!admin?.companyId || !admin.housingEstateId) return;
  const t = { companyId: admin.companyId, housingEstateId: admin.housingEstateId };
  const [company] = await tx
    .select({ type: s.company.companyType })
    .from(s.company)
    .where(eq(s.company.id, t.companyId));
  const [menu] = await tx
    .select({ id: s.sysMenu.id })
    .from(s.sysMenu)
    .where(and(eq(s.sysMenu.perms, WALL_PERMISSION), eq(s.sysMenu.path, '/wall')));
  // The check-in duty board (issue 32) on the wall: checkin:view, read-only like the rest.
  const [board] = await tx
    .select({ id: s.sysMenu.id })
    .from(s.sysMenu)
    .where(eq(s.sysMenu.perms, WALL_BOARD_PERMISSION));
  const [role] = await tx
    .insert(s.sysRole)
    .values({ ...t, roleName: 'Wall screen', roleValue: 'WALL', remark: 'Read-only wall display: alarms and counts' })
    .returning({ id: s.sysRole.id });
  if (menu) await tx.insert(s.sysRoleMenu).values({ roleId: role.id, menuId: menu.id });
  if (board) await tx.insert(s.sysRoleMenu).values({ roleId: role.id, menuId: board.id });
  const [person] = await tx
    .insert(s.person)
    .values({ ...t, name: 'Lobby wall screen', accountType: 4 })
    .returning({ id: s.person.id });
  await tx.insert(s.personCompany).values({
    ...t,
    personId: person.id,
    staffNumber: 'WALL01',
    position: 'Wall screen',
    companyType: company?.type ?? 2,
  });
  await tx.insert(s.account).values({
    ...t,
    personId: person.id,
    username: 'wall',
    email: 'wall@example.com',
    passwordHash,
    roleId: role.id,
    kind: 'staff' as const,
  });
}
