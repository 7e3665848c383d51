import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/open-database';
import { queryRows } from '../../db/sql';

/** An approved link of the resident to a unit, parking space or shop, with its display name. */
export interface HouseLink {
  personHouseId: number;
  companyId: number;
  housingEstateId: number;
  houseType: number;
  houseId: number;
  identity: number;
  unitId: number | null;
  carSpaceId: number | null;
  shopId: number | null;
  name: string;
}

interface RawHouse {
  id: number;
  company_id: number;
  housing_estate_id: number;
  house_type: number;
  identity: number;
  unit_id: number | null;
  car_space_id: number | null;
  shop_id: number | null;
  unit_name: string | null;
  build_name: string | null;
  floor_name: string | null;
  carpark_code: string | null;
  shop_code: string | null;
}

/** SPEC §3 "Unit display": block/floor/unit, car park code or shop code. */
function displayName(r: RawHouse): string {
  if (r.house_type === 2) return r.carpark_code ?? '';
  if (r.house_type === 3) return r.shop_code ?? '';
  return [r.build_name, r.floor_name, r.unit_name].filter(Boolean).join(' ');
}

function toLink(r: RawHouse): HouseLink {
  return {
    personHouseId: r.id,
    companyId: r.company_id,
    housingEstateId: r.housing_estate_id,
    houseType: r.house_type,
    houseId: (r.unit_id ?? r.car_space_id ?? r.shop_id) as number,
    identity: r.identity,
    unitId: r.unit_id,
    carSpaceId: r.car_space_id,
    shopId: r.shop_id,
    name: displayName(r),
  };
}

const HOUSE_SELECT = sql`select ph.id, ph.company_id, ph.housing_estate_id, ph.house_type, ph.identity,
       ph.unit_id, ph.car_space_id, ph.shop_id, u.name as unit_name, b.name as build_name, f.name as floor_name,
       cs.carpark_code, s.shop_code
  from person_house ph
  left join unit u on u.id = ph.unit_id
  left join block b on b.id = u.block_id
  left join floor f on f.id = u.floor_id
  left join car_space cs on cs.id = ph.car_space_id
  left join shop s on s.id = ph.shop_id`;

/** The resident's approved houses (status 2). */
export async function housesOf(db: DbOrTx, personId: number): Promise<HouseLink[]> {
  const rows = await queryRows<RawHouse>(
    db,
    sql`${HOUSE_SELECT} where ph.person_id = ${personId} and ph.status = 2 order by ph.house_type, ph.id`,
  );
  return rows.map(toLink);
}

/** One approved house of the resident, or null when they are not linked to it. */
export async function houseOf(
  db: DbOrTx,
  personId: number,
  houseType: number,
  houseId: number,
): Promise<HouseLink | null> {
  const column = houseType === 2 ? sql`ph.car_space_id` : houseType === 3 ? sql`ph.shop_id` : sql`ph.unit_id`;
  const rows = await queryRows<RawHouse>(
    db,
    sql`${HOUSE_SELECT} where ph.person_id = ${personId} and ph.status = 2 and ph.house_type = ${houseType} and ${column} = ${houseId} limit 1`,
  );
  return rows[0] ? toLink(rows[0]) : null;
}

/**
 * The next code of the day: prefix + yyyyMMdd (UTC) + a 4-digit (or longer) daily sequence,
 * e.g. C202611220001. A transaction-scoped advisory lock per prefix and day serializes
 * concurrent reports, so two never get the same code.
 */
export async function nextCode(tx: DbOrTx, prefix: 'C' | 'E', now = new Date()): Promise<string> {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  const start = `${prefix}${day}`;
  await queryRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`work-code:${start}`}))`);
  const rows =
    prefix === 'C'
      ? await queryRows<{ code: string }>(
          tx,
          sql`select complain_code as code from complain where complain_code like ${`${start}%`}
              order by length(complain_code) desc, complain_code desc limit 1`,
        )
      : await queryRows<{ code: string }>(
          tx,
          sql`select event_code as code from event_order where event_code like ${`${start}%`}
              order by length(event_code) desc, event_code desc limit 1`,
        );
  const last = rows[0] ? Number(rows[0].code.slice(start.length)) || 0 : 0;
  return `${start}${String(last + 1).padStart(4, '0')}`;
}

/** A complaint or work order the resident reported (null when it is not theirs). */
export async function ownRequest(
  db: DbOrTx,
  kind: 'complaint' | 'eventOrder',
  id: number,
  personId: number,
): Promise<{
  id: number;
  companyId: number;
  housingEstateId: number;
  name: string;
  status: number;
  rated: boolean;
  unitId: number | null;
  carSpaceId: number | null;
  shopId: number | null;
} | null> {
  const rows =
    kind === 'complaint'
      ? await queryRows<Record<string, unknown>>(
          db,
          sql`select id, company_id, housing_estate_id, name, complain_status as status, service_efficiency, unit_id, car_space_id, shop_id
              from complain where id = ${id} and report_person_id = ${personId}`,
        )
      : await queryRows<Record<string, unknown>>(
          db,
          sql`select id, company_id, housing_estate_id, name, event_status as status, service_efficiency, unit_id, car_space_id, shop_id
              from event_order where id = ${id} and report_person_id = ${personId}`,
        );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id as number,
    companyId: r.company_id as number,
    housingEstateId: r.housing_estate_id as number,
    name: r.name as string,
    status: r.status as number,
    rated: r.service_efficiency !== null,
    unitId: r.unit_id as number | null,
    carSpaceId: r.car_space_id as number | null,
    shopId: r.shop_id as number | null,
  };
}

/** Which house an invite code opens: a unit, a parking space or a shop. */
export async function houseByInviteCode(
  db: DbOrTx,
  inviteCode: string,
): Promise<{ houseType: number; houseId: number; companyId: number; housingEstateId: number } | null> {
  const rows = await queryRows<{ house_type: number; id: number; company_id: number; housing_estate_id: number }>(
    db,
    sql`select 1 as house_type, id, company_id, housing_estate_id from unit where invite_code = ${inviteCode}
        union all select 2, id, company_id, housing_estate_id from car_space where invite_code = ${inviteCode}
        union all select 3, id, company_id, housing_estate_id from shop where invite_code = ${inviteCode}
        limit 1`,
  );
  const r = rows[0];
  return r
    ? { houseType: r.house_type, houseId: r.id, companyId: r.company_id, housingEstateId: r.housing_estate_id }
    : null;
}

/** Estates the resident has an approved house in (announcements and warnings are per estate). */
export async function estatesOf(db: DbOrTx, personId: number): Promise<number[]> {
  const rows = await queryRows<{ housing_estate_id: number }>(
    db,
    sql`select distinct housing_estate_id from person_house where person_id = ${personId} and status = 2`,
  );
  return rows.map((r) => r.housing_estate_id);
}
