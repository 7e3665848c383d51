import { count, sql } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import * as s from '../db/schema';
import { hashPassword } from '../modules/auth/password';
import { estateDefaultsFrom } from '../modules/estate-settings/estate-defaults';
import { ensureMenus } from './ensure-menus';

/** The first administrator of a database without the demo (ADMIN_* variables, README). */
export interface FirstAdmin {
  username: string;
  password: string;
  email?: string;
  companyName?: string;
  estateName?: string;
  /** The estate's IANA time zone (ADMIN_TIME_ZONE), UTC when not given. */
  timeZone?: string;
}

/** True for a time zone name the runtime knows (IANA, e.g. Asia/Hong_Kong). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Why a first administrator cannot be made from these values; null when they are fine. */
export function firstAdminProblem(admin: FirstAdmin): string | null {
  if (!/^[\w.@-]{1,64}$/.test(admin.username)) return 'ADMIN_USERNAME must be 1–64 letters, digits or . _ @ -';
  // The same rule as a password changed in the console (shared/src/api/account.ts).
  if (admin.password.length < 6 || admin.password.length > 32) return 'ADMIN_PASSWORD must be 6–32 characters';
  if (admin.timeZone && !isTimeZone(admin.timeZone))
    return 'ADMIN_TIME_ZONE must be an IANA time zone name such as Asia/Hong_Kong';
  return null;
}

/**
 * A database that is not the demo (production): brings the menu table up to date and, when no
 * account exists yet, creates the first administrator — a property company, its estate, an
 * ADMIN role holding every menu, the person and the account — so someone can sign in and set up
 * the rest in the console. Under the seed's advisory lock, so api instances starting together on
 * one empty database create exactly one. Answers what happened.
 */
export async function ensureFirstAdmin(
  db: Db,
  admin: FirstAdmin | undefined,
): Promise<'created' | 'accounts exist' | 'not configured'> {
  const passwordHash = admin ? await hashPassword(admin.password) : '';
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(726355)`);
    await ensureMenus(tx);
    const [{ n }] = await tx.select({ n: count() }).from(s.account);
    if (n > 0) return 'accounts exist';
    if (!admin) return 'not configured';
    const companyName = admin.companyName || 'Property Management';
    const [co] = await tx.insert(s.company).values({ name: companyName, companyType: 2 }).returning();
    const [estate] = await tx
      .insert(s.housingEstate)
      .values({ companyId: co.id, name: admin.estateName || companyName, timeZone: admin.timeZone || 'UTC' })
      .returning();
    const t = { companyId: co.id, housingEstateId: estate.id };
    const [role] = await tx
      .insert(s.sysRole)
      .values({ ...t, roleName: 'Administrator', roleValue: 'ADMIN', remark: 'Every permission' })
      .returning();
    const menus = await tx.select({ id: s.sysMenu.id }).from(s.sysMenu);
    await tx.insert(s.sysRoleMenu).values(menus.map((m) => ({ roleId: role.id, menuId: m.id })));
    const [person] = await tx
      .insert(s.person)
      .values({ ...t, name: admin.username, email: admin.email || null, accountType: 4 })
      .returning();
    await tx.insert(s.personCompany).values({ ...t, personId: person.id, companyType: 2, position: 'Administrator' });
    await tx.insert(s.account).values({
      ...t,
      personId: person.id,
      username: admin.username,
      email: admin.email || null,
      passwordHash,
      roleId: role.id,
      kind: 'staff',
      language: estateDefaultsFrom().defaultLanguage,
    });
    return 'created';
  });
}
