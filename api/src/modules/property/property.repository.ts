import { sql, type SQL } from 'drizzle-orm';
import {
  unitNameOf,
  type BlockRow,
  type CarParkRow,
  type FloorRow,
  type ShopInfo,
  type ShopRow,
  type SpaceInfo,
  type SpaceRow,
  type UnitInfo,
  type UnitRow,
} from '@pm/shared';
import type { DbOrTx } from '../../db/database-types';
import { likePattern, queryRows } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';
import { newInviteCode } from '../person/invite-code';

/**
 * The SQL of the buildings domain: blocks, floors, units, car parks, spaces and shops. Every
 * query is scoped to the caller's company and estate (`h.company_id = … and h.housing_estate_id = …`).
 */

/** The three house tables, by the name the domain uses for them. */
export const HOUSE_TABLES = {
  unit: { table: 'unit', link: 'unit_id', houseType: 1 },
  space: { table: 'car_space', link: 'car_space_id', houseType: 2 },
  shop: { table: 'shop', link: 'shop_id', houseType: 3 },
} as const;
export type HouseKindName = keyof typeof HOUSE_TABLES;

const scope = (alias: string, tenant: TenantScope): SQL =>
  sql`${sql.raw(alias)}.company_id = ${tenant.companyId} and ${sql.raw(alias)}.housing_estate_id = ${tenant.housingEstateId}`;

/** The approved owner of house `h` (SPEC §3 "Unit info" owner), as columns owner_id, owner_name, owner_gender. */
function ownerColumns(link: string): string {
  const owner = (column: string) =>
    `(select p.${column} from person_house ph join person p on p.id = ph.person_id
       where ph.${link} = h.id and ph.identity = 1 and ph.status = 2 order by ph.id limit 1)`;
  return `${owner('id')} as owner_id, ${owner('name')} as owner_name, ${owner('gender')} as owner_gender`;
}

/**
 * A keyword on the house's own text columns or its approved people's names, as a union of id
 * sets so each part uses its trigram index (migration 0010 for the houses' columns,
 * person_name_trgm_idx for names) instead of one `or` that tests every house of the estate
 * (100,000 units at scale).
 */
function keywordOn(
  kind: HouseKindName,
  columns: string[],
  keyword: string | undefined,
  tenant: TenantScope,
): SQL | null {
  if (!keyword) return null;
  const { table, link } = HOUSE_TABLES[kind];
  const pattern = likePattern(keyword);
  const own = columns.map((c) => sql`${sql.raw(`x.${c}`)} ilike ${pattern}`);
  return sql`h.id in (
    select x.id from ${sql.raw(table)} x where ${scope('x', tenant)} and (${sql.join(own, sql` or `)})
    union all
    select ph.${sql.raw(link)} from person_house ph join person p on p.id = ph.person_id
      where ph.housing_estate_id = ${tenant.housingEstateId} and ph.status = 2 and ph.${sql.raw(link)} is not null
        and p.name ilike ${pattern})`;
}

/**
 * The rows of one page, chosen on the bare table (`h`) and only then joined and given their
 * owner: the rows an offset skips cost neither joins nor subqueries (page 5,000 stays fast).
 */
const pageOf = (table: string, where: SQL, order: string, limit: number, offset: number): SQL =>
  sql`h.id in (select h.id from ${sql.raw(table)} h where ${where} order by ${sql.raw(order)} limit ${limit} offset ${offset})`;

const whereAll = (parts: (SQL | null)[]): SQL =>
  sql.join(
    parts.filter((p): p is SQL => p !== null),
    sql` and `,
  );

const total = async (db: DbOrTx, from: SQL, where: SQL): Promise<number> =>
  Number((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${from} where ${where}`))[0].n);

interface OwnerCols {
  owner_id: number | null;
  owner_name: string | null;
  owner_gender: number | null;
}
const ownerOf = (r: OwnerCols) =>
  r.owner_id === null ? null : { personId: r.owner_id, name: r.owner_name ?? '', gender: r.owner_gender };

// ---------------------------------------------------------------- blocks and floors

interface RawBlock {
  id: number;
  name: string;
  number: string | null;
  floor_count: number;
  units_per_floor: number;
  prefix: string | null;
  suffix: string | null;
  house_type: number;
  unit_count: number;
  floors: FloorRow[] | string | null;
}

export async function listBlocks(db: DbOrTx, tenant: TenantScope, blockId?: number): Promise<BlockRow[]> {
  const rows = await queryRows<RawBlock>(
    db,
    sql`select b.id, b.name, b.number, b.floor_count, b.units_per_floor, b.prefix, b.suffix, b.house_type,
        (select count(*)::int from unit u where u.block_id = b.id) as unit_count,
        (select coalesce(json_agg(json_build_object('floorId', f.id, 'name', f.name, 'number', f.number)
                 order by f.number), '[]'::json) from floor f where f.block_id = b.id) as floors
      from block b where ${scope('b', tenant)} ${blockId ? sql`and b.id = ${blockId}` : sql``}
      order by b.number, b.id`,
  );
  return rows.map((r) => ({
    blockId: r.id,
    name: r.name,
    number: r.number,
    floorCount: r.floor_count,
    unitsPerFloor: r.units_per_floor,
    prefix: r.prefix,
    suffix: r.suffix,
    houseType: r.house_type,
    unitCount: r.unit_count,
    floors: (typeof r.floors === 'string' ? JSON.parse(r.floors) : (r.floors ?? [])) as FloorRow[],
  }));
}

export interface NewBlock {
  name: string;
  number: string;
  floorCount: number;
  unitsPerFloor: number;
  prefix?: string;
  suffix?: string;
  houseType: number;
  invitePerson: number;
}

/** Inserts a block, its floors and every unit (call it in a transaction); answers the block id. */
export async function insertBlock(tx: DbOrTx, tenant: TenantScope, b: NewBlock): Promise<number> {
  const [{ id: blockId }] = await queryRows<{ id: number }>(
    tx,
    sql`insert into block (company_id, housing_estate_id, name, number, floor_count, units_per_floor, prefix, suffix, house_type)
        values (${tenant.companyId}, ${tenant.housingEstateId}, ${b.name}, ${b.number}, ${b.floorCount}, ${b.unitsPerFloor},
                ${b.prefix ?? null}, ${b.suffix ?? null}, ${b.houseType}) returning id`,
  );
  for (let f = 1; f <= b.floorCount; f++) {
    const [{ id: floorId }] = await queryRows<{ id: number }>(
      tx,
      sql`insert into floor (company_id, housing_estate_id, block_id, name, number)
          values (${tenant.companyId}, ${tenant.housingEstateId}, ${blockId}, ${String(f)}, ${f}) returning id`,
    );
    const values = Array.from(
      { length: b.unitsPerFloor },
      (_, u) =>
        sql`(${tenant.companyId}, ${tenant.housingEstateId}, ${blockId}, ${floorId}, ${unitNameOf(b, f, u + 1)}, ${b.invitePerson}, ${newInviteCode()})`,
    );
    await tx.execute(
      sql`insert into unit (company_id, housing_estate_id, block_id, floor_id, name, invite_person, invite_code)
          values ${sql.join(values, sql`, `)}`,
    );
  }
  return blockId;
}

export async function updateBlock(
  db: DbOrTx,
  tenant: TenantScope,
  b: { blockId: number; name: string; number: string; houseType: number },
): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`update block b set name = ${b.name}, number = ${b.number}, house_type = ${b.houseType}
        where b.id = ${b.blockId} and ${scope('b', tenant)} returning b.id`,
  );
  return rows.length > 0;
}

export async function findFloor(db: DbOrTx, tenant: TenantScope, floorId: number): Promise<FloorRow | null> {
  const rows = await queryRows<FloorRow>(
    db,
    sql`select f.id as "floorId", f.name, f.number from floor f where f.id = ${floorId} and ${scope('f', tenant)}`,
  );
  return rows[0] ?? null;
}

export async function renameFloor(db: DbOrTx, tenant: TenantScope, floorId: number, name: string): Promise<void> {
  await db.execute(sql`update floor f set name = ${name} where f.id = ${floorId} and ${scope('f', tenant)}`);
}

/** Whether anyone is bound (pending or approved) to a unit the condition on `u` selects. */
export async function unitsBound(db: DbOrTx, unitWhere: SQL): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from person_house ph join unit u on u.id = ph.unit_id where ph.status in (1, 2) and ${unitWhere} limit 1`,
  );
  return rows.length > 0;
}

export async function deleteBlockRows(tx: DbOrTx, blockId: number): Promise<void> {
  await tx.execute(sql`delete from unit where block_id = ${blockId}`);
  await tx.execute(sql`delete from floor where block_id = ${blockId}`);
  await tx.execute(sql`delete from block where id = ${blockId}`);
}

export async function deleteFloorRows(tx: DbOrTx, floorId: number): Promise<void> {
  await tx.execute(sql`delete from unit where floor_id = ${floorId}`);
  await tx.execute(sql`delete from floor where id = ${floorId}`);
}

// ---------------------------------------------------------------- units

export interface UnitFilter {
  blockId?: number;
  floorId?: number;
  houseStatus?: number;
  keyword?: string;
}

interface RawUnit extends OwnerCols {
  id: number;
  name: string;
  block_id: number;
  build_name: string;
  floor_id: number;
  floor_name: string;
  room: number;
  living_room: number;
  restroom: number;
  invite_person: number;
  house_status: number;
  auth_status: number;
  invite_code: string | null;
}

const UNIT_ORDER = 'h.block_id, h.floor_id, h.id';
const UNIT_SELECT = (extraWhere: SQL) => sql`
  select h.id, h.name, h.block_id, b.name as build_name, h.floor_id, f.name as floor_name, h.room, h.living_room,
         h.restroom, h.invite_person, h.house_status, h.auth_status, h.invite_code, ${sql.raw(ownerColumns('unit_id'))}
  from unit h join block b on b.id = h.block_id join floor f on f.id = h.floor_id
  where ${extraWhere}`;

const toUnitRow = (r: RawUnit): UnitRow => ({
  unitId: r.id,
  name: r.name,
  blockId: r.block_id,
  buildName: r.build_name,
  floorId: r.floor_id,
  floorName: r.floor_name,
  room: r.room,
  livingRoom: r.living_room,
  restroom: r.restroom,
  authStatus: r.auth_status,
  invitePerson: r.invite_person,
  houseStatus: r.house_status,
  ownerName: r.owner_name,
});

/**
 * The unit list's total. Without keyword or floor it is a sum over the unit_total counters
 * (kept by triggers, migration 0010) per block and house status, so it never counts 100,000
 * units; otherwise it counts the matching rows (a floor's units, a keyword's few matches).
 */
async function countUnits(db: DbOrTx, tenant: TenantScope, f: UnitFilter, where: SQL): Promise<number> {
  if (f.keyword || f.floorId) return total(db, sql`unit h`, where);
  const parts = whereAll([
    scope('t', tenant),
    f.blockId ? sql`t.block_id = ${f.blockId}` : null,
    f.houseStatus ? sql`t.house_status = ${f.houseStatus}` : null,
  ]);
  const [{ n }] = await queryRows<{ n: number }>(
    db,
    sql`select coalesce(sum(t.n), 0)::int as n from unit_total t where ${parts}`,
  );
  return n;
}

export async function listUnits(
  db: DbOrTx,
  tenant: TenantScope,
  f: UnitFilter,
  limit: number,
  offset: number,
): Promise<{ rows: UnitRow[]; total: number }> {
  const where = whereAll([
    scope('h', tenant),
    f.blockId ? sql`h.block_id = ${f.blockId}` : null,
    f.floorId ? sql`h.floor_id = ${f.floorId}` : null,
    f.houseStatus ? sql`h.house_status = ${f.houseStatus}` : null,
    keywordOn('unit', ['name'], f.keyword, tenant),
  ]);
  // The total and the page are independent: on PostgreSQL they run at once on two connections.
  const [count, rows] = await Promise.all([
    countUnits(db, tenant, f, where),
    queryRows<RawUnit>(
      db,
      sql`${UNIT_SELECT(pageOf('unit', where, UNIT_ORDER, limit, offset))} order by ${sql.raw(UNIT_ORDER)}`,
    ),
  ]);
  return { rows: rows.map(toUnitRow), total: count };
}

export async function findUnit(db: DbOrTx, tenant: TenantScope, id: number): Promise<UnitInfo | null> {
  const [r] = await queryRows<RawUnit>(db, UNIT_SELECT(sql`h.id = ${id} and ${scope('h', tenant)}`));
  return r ? { ...toUnitRow(r), inviteCode: r.invite_code, owner: ownerOf(r) } : null;
}

export async function modifyUnit(
  db: DbOrTx,
  tenant: TenantScope,
  id: number,
  v: { room: number; livingRoom: number; restroom: number; invitePerson: number },
): Promise<void> {
  await db.execute(
    sql`update unit h set room = ${v.room}, living_room = ${v.livingRoom}, restroom = ${v.restroom},
        invite_person = ${v.invitePerson} where h.id = ${id} and ${scope('h', tenant)}`,
  );
}

export async function unitNameTaken(db: DbOrTx, floorId: number, name: string, exceptId: number): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from unit where floor_id = ${floorId} and lower(name) = lower(${name}) and id <> ${exceptId} limit 1`,
  );
  return rows.length > 0;
}

export async function renameUnit(db: DbOrTx, id: number, name: string): Promise<void> {
  await db.execute(sql`update unit set name = ${name} where id = ${id}`);
}

// ---------------------------------------------------------------- car parks and spaces

export async function listCarParks(db: DbOrTx, tenant: TenantScope, id?: number): Promise<CarParkRow[]> {
  return queryRows<CarParkRow>(
    db,
    sql`select c.id as "carParkId", c.name, (select count(*)::int from car_space s where s.car_park_id = c.id) as "spaceCount"
        from car_park c where ${scope('c', tenant)} ${id ? sql`and c.id = ${id}` : sql``} order by c.name, c.id`,
  );
}

export async function insertCarPark(db: DbOrTx, tenant: TenantScope, name: string): Promise<number> {
  const [{ id }] = await queryRows<{ id: number }>(
    db,
    sql`insert into car_park (company_id, housing_estate_id, name) values (${tenant.companyId}, ${tenant.housingEstateId}, ${name}) returning id`,
  );
  return id;
}

export async function renameCarPark(db: DbOrTx, tenant: TenantScope, id: number, name: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`update car_park c set name = ${name} where c.id = ${id} and ${scope('c', tenant)} returning c.id`,
  );
  return rows.length > 0;
}

export async function spacesBound(db: DbOrTx, spaceWhere: SQL): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from person_house ph join car_space s on s.id = ph.car_space_id where ph.status in (1, 2) and ${spaceWhere} limit 1`,
  );
  return rows.length > 0;
}

export async function deleteCarParkRows(tx: DbOrTx, id: number): Promise<void> {
  await tx.execute(sql`delete from car_space where car_park_id = ${id}`);
  await tx.execute(sql`delete from car_park where id = ${id}`);
}

export interface SpaceFilter {
  carParkId?: number;
  type?: number;
  houseStatus?: number;
  keyword?: string;
}

interface RawSpace extends OwnerCols {
  id: number;
  car_park_id: number;
  car_park_name: string;
  carpark_code: string;
  type: number;
  plate: string | null;
  invite_person: number;
  house_status: number;
  invite_code: string | null;
}

const SPACE_SELECT = (where: SQL) => sql`
  select h.id, h.car_park_id, c.name as car_park_name, h.carpark_code, h.type, h.plate, h.invite_person,
         h.house_status, h.invite_code, ${sql.raw(ownerColumns('car_space_id'))}
  from car_space h join car_park c on c.id = h.car_park_id where ${where}`;

const toSpaceRow = (r: RawSpace): SpaceRow => ({
  carSpaceId: r.id,
  carParkId: r.car_park_id,
  carParkName: r.car_park_name,
  carparkCode: r.carpark_code,
  type: r.type,
  plate: r.plate,
  invitePerson: r.invite_person,
  houseStatus: r.house_status,
  ownerName: r.owner_name,
});

export async function listSpaces(
  db: DbOrTx,
  tenant: TenantScope,
  f: SpaceFilter,
  limit: number,
  offset: number,
): Promise<{ rows: SpaceRow[]; total: number }> {
  const where = whereAll([
    scope('h', tenant),
    f.carParkId ? sql`h.car_park_id = ${f.carParkId}` : null,
    f.type ? sql`h.type = ${f.type}` : null,
    f.houseStatus ? sql`h.house_status = ${f.houseStatus}` : null,
    keywordOn('space', ['carpark_code', 'plate'], f.keyword, tenant),
  ]);
  const rows = await queryRows<RawSpace>(
    db,
    sql`${SPACE_SELECT(pageOf('car_space', where, 'h.id', limit, offset))} order by h.id`,
  );
  return { rows: rows.map(toSpaceRow), total: await total(db, sql`car_space h`, where) };
}

export async function findSpace(db: DbOrTx, tenant: TenantScope, id: number): Promise<SpaceInfo | null> {
  const [r] = await queryRows<RawSpace>(db, SPACE_SELECT(sql`h.id = ${id} and ${scope('h', tenant)}`));
  return r ? { ...toSpaceRow(r), inviteCode: r.invite_code, owner: ownerOf(r) } : null;
}

export interface SpaceFields {
  carParkId: number;
  carparkCode: string;
  type: number;
  plate?: string;
  invitePerson: number;
}

export async function insertSpace(db: DbOrTx, tenant: TenantScope, s: SpaceFields): Promise<number> {
  const [{ id }] = await queryRows<{ id: number }>(
    db,
    sql`insert into car_space (company_id, housing_estate_id, car_park_id, carpark_code, type, plate, invite_person, invite_code)
        values (${tenant.companyId}, ${tenant.housingEstateId}, ${s.carParkId}, ${s.carparkCode}, ${s.type}, ${s.plate ?? null},
                ${s.invitePerson}, ${newInviteCode()}) returning id`,
  );
  return id;
}

export async function updateSpace(db: DbOrTx, id: number, s: SpaceFields): Promise<void> {
  await db.execute(
    sql`update car_space set car_park_id = ${s.carParkId}, carpark_code = ${s.carparkCode}, type = ${s.type},
        plate = ${s.plate ?? null}, invite_person = ${s.invitePerson} where id = ${id}`,
  );
}

// ---------------------------------------------------------------- shops

interface RawShop extends OwnerCols {
  id: number;
  shop_code: string;
  name: string | null;
  invite_person: number;
  house_status: number;
  invite_code: string | null;
}

const SHOP_SELECT = (where: SQL) => sql`
  select h.id, h.shop_code, h.name, h.invite_person, h.house_status, h.invite_code, ${sql.raw(ownerColumns('shop_id'))}
  from shop h where ${where}`;

const toShopRow = (r: RawShop): ShopRow => ({
  shopId: r.id,
  shopCode: r.shop_code,
  name: r.name,
  invitePerson: r.invite_person,
  houseStatus: r.house_status,
  ownerName: r.owner_name,
});

export async function listShops(
  db: DbOrTx,
  tenant: TenantScope,
  f: { houseStatus?: number; keyword?: string },
  limit: number,
  offset: number,
): Promise<{ rows: ShopRow[]; total: number }> {
  const where = whereAll([
    scope('h', tenant),
    f.houseStatus ? sql`h.house_status = ${f.houseStatus}` : null,
    keywordOn('shop', ['shop_code', 'name'], f.keyword, tenant),
  ]);
  const rows = await queryRows<RawShop>(
    db,
    sql`${SHOP_SELECT(pageOf('shop', where, 'h.id', limit, offset))} order by h.id`,
  );
  return { rows: rows.map(toShopRow), total: await total(db, sql`shop h`, where) };
}

export async function findShop(db: DbOrTx, tenant: TenantScope, id: number): Promise<ShopInfo | null> {
  const [r] = await queryRows<RawShop>(db, SHOP_SELECT(sql`h.id = ${id} and ${scope('h', tenant)}`));
  return r ? { ...toShopRow(r), inviteCode: r.invite_code, owner: ownerOf(r) } : null;
}

export interface ShopFields {
  shopCode: string;
  name?: string;
  invitePerson: number;
}

export async function insertShop(db: DbOrTx, tenant: TenantScope, s: ShopFields): Promise<number> {
  const [{ id }] = await queryRows<{ id: number }>(
    db,
    sql`insert into shop (company_id, housing_estate_id, shop_code, name, invite_person, invite_code)
        values (${tenant.companyId}, ${tenant.housingEstateId}, ${s.shopCode}, ${s.name ?? null}, ${s.invitePerson},
                ${newInviteCode()}) returning id`,
  );
  return id;
}

export async function updateShop(db: DbOrTx, id: number, s: ShopFields): Promise<void> {
  await db.execute(
    sql`update shop set shop_code = ${s.shopCode}, name = ${s.name ?? null}, invite_person = ${s.invitePerson} where id = ${id}`,
  );
}

// ---------------------------------------------------------------- every house kind

/** Whether another house of the estate already has this code (space or shop code), case-insensitive. */
export async function codeTaken(
  db: DbOrTx,
  tenant: TenantScope,
  kind: 'space' | 'shop',
  code: string,
  exceptId: number,
): Promise<boolean> {
  const column = kind === 'space' ? 'carpark_code' : 'shop_code';
  const rows = await queryRows(
    db,
    sql`select 1 from ${sql.raw(HOUSE_TABLES[kind].table)} h where ${scope('h', tenant)}
        and lower(h.${sql.raw(column)}) = lower(${code}) and h.id <> ${exceptId} limit 1`,
  );
  return rows.length > 0;
}

export async function setInvitePerson(
  db: DbOrTx,
  tenant: TenantScope,
  kind: HouseKindName,
  id: number,
  invitePerson: number,
): Promise<void> {
  await db.execute(
    sql`update ${sql.raw(HOUSE_TABLES[kind].table)} h set invite_person = ${invitePerson} where h.id = ${id} and ${scope('h', tenant)}`,
  );
}

/** Replaces a house's invite code with a new random one; answers it, or null when not the caller's. */
export async function regenerateCode(
  db: DbOrTx,
  tenant: TenantScope,
  kind: HouseKindName,
  id: number,
): Promise<string | null> {
  const rows = await queryRows<{ invite_code: string }>(
    db,
    sql`update ${sql.raw(HOUSE_TABLES[kind].table)} h
        set invite_code = ${newInviteCode()}, revoked_invite_code = coalesce(h.invite_code, h.revoked_invite_code), qr_code = null
        where h.id = ${id} and ${scope('h', tenant)} returning h.invite_code`,
  );
  return rows[0]?.invite_code ?? null;
}

/**
 * Revokes a house's invite code: it stops working at once and the house has none until staff
 * make a new one (kept as revoked_invite_code, so a join with it is told so). Answers whether the
 * house is the caller's; revoking a house without a code changes nothing.
 */
export async function revokeCode(db: DbOrTx, tenant: TenantScope, kind: HouseKindName, id: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update ${sql.raw(HOUSE_TABLES[kind].table)} h
        set invite_code = null, revoked_invite_code = coalesce(h.invite_code, h.revoked_invite_code), qr_code = null
        where h.id = ${id} and ${scope('h', tenant)} returning h.id`,
  );
  return rows.length > 0;
}

/** Whether a house is in the caller's estate and whether anyone is bound to it. */
export async function houseState(
  db: DbOrTx,
  tenant: TenantScope,
  kind: HouseKindName,
  id: number,
): Promise<{ exists: boolean; bound: boolean }> {
  const { table, link } = HOUSE_TABLES[kind];
  const rows = await queryRows<{ bound: boolean }>(
    db,
    sql`select exists (select 1 from person_house ph where ph.${sql.raw(link)} = h.id and ph.status in (1, 2)) as bound
        from ${sql.raw(table)} h where h.id = ${id} and ${scope('h', tenant)}`,
  );
  return { exists: rows.length > 0, bound: !!rows[0]?.bound };
}

export async function deleteHouse(tx: DbOrTx, kind: HouseKindName, id: number): Promise<void> {
  await tx.execute(sql`delete from ${sql.raw(HOUSE_TABLES[kind].table)} where id = ${id}`);
}

/** A house's code and the label parts printed beside its QR code. */
export interface HouseCode {
  id: number;
  /** Null when staff revoked it. */
  inviteCode: string | null;
  /** Block, floor, unit (a unit); car park, space code (a space); shop code, name (a shop; may be null). */
  parts: (string | null)[];
}

/** The codes of the selected houses of the caller's estate, in the order of the list. */
export async function houseCodes(
  db: DbOrTx,
  tenant: TenantScope,
  kind: HouseKindName,
  ids: readonly number[],
): Promise<HouseCode[]> {
  const idList = sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  );
  const query = {
    unit: sql`select h.id, h.invite_code, b.name as p1, f.name as p2, h.name as p3 from unit h
              join block b on b.id = h.block_id join floor f on f.id = h.floor_id
              where h.id in (${idList}) and ${scope('h', tenant)} order by h.block_id, h.floor_id, h.id`,
    space: sql`select h.id, h.invite_code, c.name as p1, h.carpark_code as p2, null::text as p3 from car_space h
               join car_park c on c.id = h.car_park_id where h.id in (${idList}) and ${scope('h', tenant)} order by h.id`,
    shop: sql`select h.id, h.invite_code, h.shop_code as p1, h.name as p2, null::text as p3 from shop h
              where h.id in (${idList}) and ${scope('h', tenant)} order by h.id`,
  }[kind];
  const rows = await queryRows<{
    id: number;
    invite_code: string | null;
    p1: string;
    p2: string | null;
    p3: string | null;
  }>(db, query);
  return rows.map((r) => ({
    id: r.id,
    inviteCode: r.invite_code,
    parts: kind === 'unit' ? [r.p1, r.p2, r.p3] : [r.p1, r.p2],
  }));
}

/** The estate's name, printed on every QR label. */
export async function estateName(db: DbOrTx, tenant: TenantScope): Promise<string> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select name from housing_estate where id = ${tenant.housingEstateId}`,
  );
  return rows[0]?.name ?? '';
}
