import { sql, type SQL } from 'drizzle-orm';
import type { HistoryRow, OwnRequest, PersonHouseRow } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { dayRange, isoOrNull, likePattern, pageRows, queryRows } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';

/**
 * The SQL of the owners-and-residents screens (issue 19): the review list, a house's people,
 * the history staff, one link, and the resident's own requests. Every query is scoped to the
 * caller's company and estate.
 */

/** The person_house / person_house_history column that links to a house type (1 unit, 2 space, 3 shop). */
export function houseLinkColumn(houseType: number, alias: string): SQL {
  const column = houseType === 2 ? 'car_space_id' : houseType === 3 ? 'shop_id' : 'unit_id';
  return sql.raw(`${alias}.${column}`);
}

/** The house table of a house type, for a row lock (SELECT … FOR UPDATE) during an owner change. */
export async function lockHouse(tx: DbOrTx, houseType: number, houseId: number): Promise<void> {
  const table = sql.raw(houseType === 2 ? 'car_space' : houseType === 3 ? 'shop' : 'unit');
  await tx.execute(sql`select id from ${table} where id = ${houseId} for update`);
}

/** The private certificate picture route of a link (never the stored upload path). */
export const certImageRoute = (personHouseId: number) => `/base/personhouse/certimg/${personHouseId}`;

/** The person and house columns a link row and a history row both start with (LINK_SELECT, HISTORY_SELECT). */
interface RawPersonHouse {
  id: number;
  person_id: number;
  name: string;
  gender: number;
  tel: string | null;
  account_type: number;
  photo: string | null;
  house_type: number;
  house_id: number;
  build_name: string | null;
  floor_name: string | null;
  unit_name: string | null;
  carpark_code: string | null;
  shop_code: string | null;
  identity: number;
}

/** The person and house fields of a PersonHouseRow or a HistoryRow. */
function personAndHouse(r: RawPersonHouse) {
  return {
    personId: r.person_id,
    name: r.name,
    gender: r.gender,
    tel: r.tel,
    accountType: r.account_type,
    photo: r.photo,
    houseType: r.house_type,
    houseId: r.house_id,
    buildName: r.build_name,
    floorName: r.floor_name,
    unitName: r.unit_name,
    carParkCode: r.carpark_code,
    shopCode: r.shop_code,
    identity: r.identity,
  };
}

interface RawLink extends RawPersonHouse {
  relation: number | null;
  status: number;
  auth_status: number;
  house_cert_code: string | null;
  has_cert_img: boolean;
  join_time: string | Date;
  refuse_reason: string | null;
  current_owner_name: string | null;
  house_status: number;
}

/** The approved owner of the link's house other than the link's person (SPEC §4's question). */
const CURRENT_OWNER = sql`case ph.house_type
    when 1 then (select op.name from person_house o join person op on op.id = o.person_id
                 where o.unit_id = ph.unit_id and o.identity = 1 and o.status = 2 and o.person_id <> ph.person_id limit 1)
    when 2 then (select op.name from person_house o join person op on op.id = o.person_id
                 where o.car_space_id = ph.car_space_id and o.identity = 1 and o.status = 2 and o.person_id <> ph.person_id limit 1)
    else (select op.name from person_house o join person op on op.id = o.person_id
          where o.shop_id = ph.shop_id and o.identity = 1 and o.status = 2 and o.person_id <> ph.person_id limit 1) end`;

/** The row query over `source` (person_house, or a page of it already sorted and cut, aliased ph). */
const linkSelect = (source: SQL) => sql`select ph.id, ph.person_id, p.name, p.gender, p.tel, p.account_type,
       p.images->0->>'url' as photo, ph.house_type, coalesce(ph.unit_id, ph.car_space_id, ph.shop_id) as house_id,
       b.name as build_name, f.name as floor_name, u.name as unit_name, cs.carpark_code, s.shop_code,
       ph.identity, ph.relation, ph.status, ph.auth_status, ph.house_cert_code,
       (ph.house_cert_img is not null) as has_cert_img, ph.join_time, ph.refuse_reason,
       ${CURRENT_OWNER} as current_owner_name, coalesce(u.house_status, cs.house_status, s.house_status) as house_status
  from ${source}
  join person p on p.id = ph.person_id
  left join unit u on u.id = ph.unit_id
  left join block b on b.id = u.block_id
  left join floor f on f.id = u.floor_id
  left join car_space cs on cs.id = ph.car_space_id
  left join shop s on s.id = ph.shop_id`;
const LINK_SELECT = linkSelect(sql`person_house ph`);

function toRow(r: RawLink): PersonHouseRow {
  return {
    personHouseId: r.id,
    ...personAndHouse(r),
    relation: r.relation,
    status: r.status,
    authStatus: r.auth_status,
    houseCertCode: r.house_cert_code,
    houseCertImg: r.has_cert_img ? certImageRoute(r.id) : null,
    joinTime: isoOrNull(r.join_time) as string,
    refuseReason: r.refuse_reason,
    currentOwnerName: r.current_owner_name,
    houseStatus: r.house_status,
  };
}

const tenantOf = (alias: string, t: TenantScope) =>
  sql`${sql.raw(alias)}.company_id = ${t.companyId} and ${sql.raw(alias)}.housing_estate_id = ${t.housingEstateId}`;

/** House types (1–3, already validated) as an `in (…)` list. */
const houseTypeList = (types: number[]) =>
  sql.join(
    types.map((h) => sql.raw(String(Math.trunc(h)))),
    sql`, `,
  );

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  limit: number;
  totalPage: number;
}

function pageOf<T>(list: T[], total: number, page: number, limit: number): Page<T> {
  return { list, total, page, limit, totalPage: Math.ceil(total / limit) };
}

/** Up to this many keyword matches are gathered and sorted; more are met walking the join time index. */
const FEW_MATCHES = 5000;

export interface ReviewFilters {
  page: number;
  limit: number;
  status?: number;
  houseType?: number;
  identity?: number;
  keyword?: string;
  startTime?: string;
  endTime?: string;
}

/** The owner-review list: requests of the house types `houseTypes`, newest first. */
export async function reviewPage(
  db: DbOrTx,
  tenant: TenantScope,
  houseTypes: number[],
  f: ReviewFilters,
): Promise<Page<PersonHouseRow>> {
  const types = f.houseType ? houseTypes.filter((h) => h === f.houseType) : houseTypes;
  const where: SQL[] = [tenantOf('ph', tenant), sql`ph.status = ${f.status ?? 1}`];
  // Every house type: no condition, so the (estate, status, join time) index gives the newest first.
  if (types.length < 3) where.push(sql`ph.house_type in (${houseTypeList(types)})`);
  if (f.identity) where.push(sql`ph.identity = ${f.identity}`);
  if (f.keyword) {
    // The matching persons are found first (trigram indexes on name and tel), so the condition
    // on person_house is two index lookups OR-ed together (its certificate code's trigram index,
    // person_id = any(…)), not a scan of every certified link.
    const like = likePattern(f.keyword);
    where.push(sql`(ph.house_cert_code ilike ${like} or ph.person_id = any(array(
        select p.id from person p where p.name ilike ${like} or p.tel ilike ${like})))`);
  }
  where.push(...dayRange(sql`ph.join_time`, tenant.housingEstateId, f.startTime, f.endTime));
  if (types.length === 0) return pageOf([], 0, f.page, f.limit);
  const cond = sql.join(where, sql` and `);
  // A tab without other filters reads its total from the person_house_total counters (the
  // certified tab holds nearly every link); a filtered one counts its matching rows. A keyword
  // counts first, to choose how to find its page: few matches (a code, a phone number, a rare
  // name) are gathered through the trigram and person_id indexes and sorted (a materialized
  // CTE); many (a common surname) are met early walking the join time index. Left to itself the
  // planner walks the index for few matches too, reading the whole tab (137 ms on 200,000
  // certified links, against 4 ms).
  const unfiltered = !f.keyword && !f.identity && !f.startTime && !f.endTime;
  const counted = sql`select count(*)::int as n from person_house ph where ${cond}`;
  const keywordTotal = f.keyword ? Number((await queryRows<{ n: number }>(db, counted))[0].n) : null;
  const matching =
    keywordTotal !== null && keywordTotal <= FEW_MATCHES
      ? sql`with hits as materialized (select ph.* from person_house ph where ${cond}) select ph.* from hits ph`
      : sql`select ph.* from person_house ph where ${cond}`;
  const { rows, total } = await pageRows<RawLink>(db, {
    // The page is sorted and cut first; only its rows are joined to their person and house.
    select: (cut) =>
      sql`${linkSelect(sql`(${matching} order by ph.join_time desc, ph.id desc ${cut}) ph`)}
          order by ph.join_time desc, ph.id desc`,
    count:
      keywordTotal ??
      (unfiltered
        ? sql`select coalesce(sum(t.n), 0)::int as n from person_house_total t
            where ${tenantOf('t', tenant)} and t.status = ${f.status ?? 1} and t.house_type in (${houseTypeList(types)})`
        : counted),
    page: f.page,
    limit: f.limit,
  });
  return pageOf(rows.map(toRow), total, f.page, f.limit);
}

/** The owner-review tabs' counts: links per status (1 pending, 2 certified, 3 refused) of the house types. */
export async function reviewTotals(
  db: DbOrTx,
  tenant: TenantScope,
  houseTypes: number[],
): Promise<{ pending: number; certified: number; refused: number }> {
  const rows = await queryRows<{ status: number; n: number }>(
    db,
    sql`select t.status, sum(t.n)::int as n from person_house_total t
        where ${tenantOf('t', tenant)} and t.house_type in (${houseTypeList(houseTypes)}) group by t.status`,
  );
  const of = (status: number) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { pending: of(1), certified: of(2), refused: of(3) };
}

/** The people of one house: approved links (and pending ones with `withPending`), owner first. */
export async function memberPage(
  db: DbOrTx,
  tenant: TenantScope,
  f: { houseType: number; houseId: number; identity?: number; withPending?: boolean; page: number; limit: number },
): Promise<Page<PersonHouseRow> & { houseStatus: number | null }> {
  const where: SQL[] = [
    tenantOf('ph', tenant),
    sql`${houseLinkColumn(f.houseType, 'ph')} = ${f.houseId}`,
    sql`ph.house_type = ${f.houseType}`,
    f.withPending ? sql`ph.status in (1, 2)` : sql`ph.status = 2`,
  ];
  if (f.identity) where.push(sql`ph.identity = ${f.identity}`);
  const cond = sql.join(where, sql` and `);
  const table = sql.raw(f.houseType === 2 ? 'car_space' : f.houseType === 3 ? 'shop' : 'unit');
  const [{ rows, total }, [house]] = await Promise.all([
    pageRows<RawLink>(db, {
      select: (cut) =>
        sql`${LINK_SELECT} where ${cond} order by ph.identity, ph.status desc, ph.join_time, ph.id ${cut}`,
      count: sql`select count(*)::int as n from person_house ph where ${cond}`,
      page: f.page,
      limit: f.limit,
    }),
    queryRows<{ house_status: number }>(
      db,
      sql`select h.house_status from ${table} h where h.id = ${f.houseId} and ${tenantOf('h', tenant)}`,
    ),
  ]);
  return { ...pageOf(rows.map(toRow), total, f.page, f.limit), houseStatus: house?.house_status ?? null };
}

/** One link of the caller's estate, with its person; null when missing or another tenant's. */
export async function linkInfo(db: DbOrTx, tenant: TenantScope, personHouseId: number): Promise<PersonHouseRow | null> {
  const rows = await queryRows<RawLink>(
    db,
    sql`${LINK_SELECT} where ph.id = ${personHouseId} and ${tenantOf('ph', tenant)}`,
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** The stored certificate picture path of a link of the caller's estate. */
export async function certImageOf(
  db: DbOrTx,
  tenant: TenantScope,
  personHouseId: number,
): Promise<{ houseType: number; path: string | null } | null> {
  const rows = await queryRows<{ house_type: number; house_cert_img: string | null }>(
    db,
    sql`select house_type, house_cert_img from person_house ph where ph.id = ${personHouseId} and ${tenantOf('ph', tenant)}`,
  );
  return rows[0] ? { houseType: rows[0].house_type, path: rows[0].house_cert_img } : null;
}

interface RawHistory extends RawPersonHouse {
  purchase_time: string | Date | null;
  leave_time: string | Date | null;
  operator_name: string | null;
  operator_images: unknown;
  operation_type: number;
}

const HISTORY_SELECT = sql`select hh.id, hh.person_id, p.name, p.gender, p.tel, p.account_type,
       p.images->0->>'url' as photo, hh.house_type, coalesce(hh.unit_id, hh.car_space_id, hh.shop_id) as house_id,
       b.name as build_name, f.name as floor_name, u.name as unit_name, cs.carpark_code, s.shop_code,
       hh.identity, hh.purchase_time, hh.leave_time, op.name as operator_name, op.images as operator_images,
       hh.operation_type
  from person_house_history hh
  join person p on p.id = hh.person_id
  left join person op on op.id = hh.operator_person_id
  left join unit u on u.id = hh.unit_id
  left join block b on b.id = u.block_id
  left join floor f on f.id = u.floor_id
  left join car_space cs on cs.id = hh.car_space_id
  left join shop s on s.id = hh.shop_id`;

function toHistory(r: RawHistory): HistoryRow {
  const images = (typeof r.operator_images === 'string' ? JSON.parse(r.operator_images) : r.operator_images) as
    { url: string }[] | null;
  return {
    personHouseHistoryId: r.id,
    ...personAndHouse(r),
    purchaseTime: isoOrNull(r.purchase_time),
    leaveTime: isoOrNull(r.leave_time),
    operator:
      r.operator_name === null ? null : { name: r.operator_name, images: (images ?? []).map((i) => ({ url: i.url })) },
    operationType: r.operation_type,
  };
}

/** The history staff of one house (people who left), newest departure first. */
export async function historyPage(
  db: DbOrTx,
  tenant: TenantScope,
  f: { houseType: number; houseId: number; page: number; limit: number },
): Promise<Page<HistoryRow>> {
  const cond = sql`${houseLinkColumn(f.houseType, 'hh')} = ${f.houseId} and hh.house_type = ${f.houseType}
    and hh.leave_time is not null and ${tenantOf('hh', tenant)}`;
  const { rows, total } = await pageRows<RawHistory>(db, {
    select: (cut) => sql`${HISTORY_SELECT} where ${cond} order by hh.leave_time desc, hh.id desc ${cut}`,
    count: sql`select count(*)::int as n from person_house_history hh where ${cond}`,
    page: f.page,
    limit: f.limit,
  });
  return pageOf(rows.map(toHistory), total, f.page, f.limit);
}

/** One history record of the caller's estate; null when missing or another tenant's. */
export async function historyInfo(db: DbOrTx, tenant: TenantScope, id: number): Promise<HistoryRow | null> {
  const rows = await queryRows<RawHistory>(
    db,
    sql`${HISTORY_SELECT} where hh.id = ${id} and ${tenantOf('hh', tenant)}`,
  );
  return rows[0] ? toHistory(rows[0]) : null;
}

/** The resident's own links (requests and houses), newest first. */
export async function ownRequests(db: DbOrTx, personId: number): Promise<OwnRequest[]> {
  const rows = await queryRows<RawLink>(
    db,
    sql`${LINK_SELECT} where ph.person_id = ${personId} order by ph.join_time desc, ph.id desc limit 200`,
  );
  return rows.map((r) => ({
    personHouseId: r.id,
    houseType: r.house_type,
    houseId: r.house_id,
    name:
      r.house_type === 2
        ? (r.carpark_code ?? '')
        : r.house_type === 3
          ? (r.shop_code ?? '')
          : [r.build_name, r.floor_name, r.unit_name].filter(Boolean).join(' '),
    identity: r.identity,
    status: r.status,
    refuseReason: r.refuse_reason,
    joinTime: isoOrNull(r.join_time) as string,
  }));
}

/** The tenants and members of a house (pending and approved), for its owner's app. */
export async function ownMembers(db: DbOrTx, houseType: number, houseId: number) {
  const rows = await queryRows<{
    id: number;
    person_id: number;
    name: string;
    identity: number;
    relation: number | null;
    status: number;
  }>(
    db,
    sql`select ph.id, ph.person_id, p.name, ph.identity, ph.relation, ph.status from person_house ph
        join person p on p.id = ph.person_id
        where ${houseLinkColumn(houseType, 'ph')} = ${houseId} and ph.house_type = ${houseType}
          and ph.identity <> 1 and ph.status in (1, 2) order by ph.identity, ph.join_time`,
  );
  return rows.map((r) => ({
    personHouseId: r.id,
    personId: r.person_id,
    name: r.name,
    identity: r.identity,
    relation: r.relation,
    status: r.status,
  }));
}

/** A resident account's person of the estate by phone number (the owner adds members with it). */
export async function residentByTel(db: DbOrTx, tel: string): Promise<{ id: number } | null> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select p.id from person p where p.tel = ${tel} and exists (
          select 1 from account a where a.person_id = p.id and a.kind = 'resident' and a.enabled) order by p.id limit 1`,
  );
  return rows[0] ?? null;
}
