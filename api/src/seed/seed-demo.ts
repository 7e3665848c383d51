import { eq, sql } from 'drizzle-orm';
import type { Permission } from '@pm/shared';
import type { Db } from '../db/open-database';
import { account, sysMenu } from '../db/schema';
import { hashPassword } from '../modules/auth/password';
import { ensureMenus } from './ensure-menus';
import { DailyCodes } from './daily-codes';
import { seedEstate, type EstatePlan } from './seed-estate';
import { seedWallScreen } from './seed-wall';
import { seedIm } from './seed-im';
import { seedSetup } from './seed-setup';
import { seedCheckin } from './seed-checkin';

/**
 * The limited demo role "staff" (DESIGN §4): complaints (list, view, reply — not
 * complain:update, so dealing with complaints stays with administrators), work orders
 * (list, view, reply, update), units, car parks, shops and bulletins; no enterprise
 * management, disaster or IM permission.
 */
export const STAFF_PERMISSIONS: Permission[] = [
  'complain:list',
  'complain:view',
  'complain:reply',
  'eventorder:list',
  'eventorder:view',
  'eventorder:reply',
  'eventorder:update',
  'unit:list',
  'unit:view',
  'carpark:list',
  'carpark:view',
  'shop:list',
  'shop:view',
  'bulletin:list',
];

const MAIN_ESTATE: EstatePlan = {
  companyName: 'Harbour View Property Management Ltd.',
  companyType: 2,
  estateName: 'Harbour View Garden',
  address: '88 Harbour Road',
  timeZone: 'Asia/Hong_Kong',
  adminUsername: 'admin',
  adminName: 'Alex Chan',
  staffUsername: 'staff',
  staffName: 'Sam Lee',
  blocks: ['Block A', 'Block B', 'Block C'],
  floors: 6,
  unitsPerFloor: 4,
  carSpaces: 30,
  shops: 8,
  extraResidents: 40,
  residentAccounts: 5,
  complaints: 36,
  eventOrders: 36,
  codePrefix: 'HV',
};

/** The second tenant, for isolation tests: its own company, estate, admin (admin2) and rows. */
const SECOND_ESTATE: EstatePlan = {
  companyName: 'Green Valley Owners Committee',
  companyType: 1,
  estateName: 'Green Valley Court',
  address: '12 Valley Street',
  timeZone: 'Asia/Hong_Kong',
  adminUsername: 'admin2',
  adminName: 'Morgan Wong',
  blocks: ['Tower 1'],
  floors: 3,
  unitsPerFloor: 2,
  carSpaces: 4,
  shops: 2,
  extraResidents: 6,
  residentAccounts: 0,
  complaints: 6,
  eventOrders: 6,
  codePrefix: 'GV',
};

/**
 * Seeds the demo estate of DESIGN §4 (plus the second tenant) in one transaction with batch
 * inserts. Returns false when the demo accounts already exist.
 */
export async function seedDemo(db: Db): Promise<boolean> {
  const [admin, staff, resident, wall] = await Promise.all([
    hashPassword('admin123'),
    hashPassword('staff123'),
    hashPassword('resident123'),
    hashPassword('wall123'),
  ]);
  // One transaction under an advisory lock: api instances starting together on one empty
  // database seed it exactly once (the others wait, then find the demo accounts there).
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(726355)`);
    await ensureMenus(tx);
    const [existing] = await tx.select({ id: account.id }).from(account).where(eq(account.username, 'admin')).limit(1);
    if (existing) return false;
    const menus = await tx.select({ id: sysMenu.id, perms: sysMenu.perms }).from(sysMenu);
    const allMenuIds = menus.map((m) => m.id);
    const staffPerms = new Set<string>(STAFF_PERMISSIONS);
    // Pages without a permission are open to every role; the staff role lists them too.
    const staffMenuIds = menus.filter((m) => m.perms === '' || staffPerms.has(m.perms)).map((m) => m.id);
    const hashes = { admin, staff, resident };
    const codes = new DailyCodes();
    await seedEstate(tx, MAIN_ESTATE, hashes, { allMenuIds, staffMenuIds }, codes);
    await seedEstate(tx, SECOND_ESTATE, hashes, { allMenuIds, staffMenuIds }, codes);
    await seedWallScreen(tx, MAIN_ESTATE.adminUsername, wall);
    await seedIm(tx, MAIN_ESTATE.adminUsername, SECOND_ESTATE.adminUsername);
    await seedSetup(tx, [MAIN_ESTATE.adminUsername, SECOND_ESTATE.adminUsername]);
    await seedCheckin(tx, MAIN_ESTATE.adminUsername);
    return true;
  });
}
