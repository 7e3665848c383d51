import { and, eq, inArray, sql } from 'drizzle-orm';
import { JoinStatus, type PersonAsset } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { personHouse, personHouseHistory } from '../../db/schema';
import { queryRows } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';

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

/** Whether `inviteCode` is a code staff revoked or replaced (issue 18), so a join with it can say so. */
export async function isRevokedInviteCode(db: DbOrTx, inviteCode: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from unit where revoked_invite_code = ${inviteCode}
        union all select 1 from car_space where revoked_invite_code = ${inviteCode}
        union all select 1 from shop where revoked_invite_code = ${inviteCode}
        limit 1`,
  );
  return rows.length > 0;
}

/** Estates the resident has an approved house in (announcements and warnings are per estate). */
export async function estatesOf(db: DbOrTx, personId: number): Promise<number[]> {
  const rows = await queryRows<{ housing_estate_id: number }>(
    db,
    sql`select distinct housing_estate_id from person_house where person_id = ${personId} and status = 2`,
  );
  return rows.map((r) => r.housing_estate_id);
}

interface RawAsset {
  id: number;
  house_type: number;
  identity: number;
  house_cert_code: string | null;
  house_cert_img: string | null;
  build_name: string | null;
  floor_name: string | null;
  unit_name: string | null;
  room: number | null;
  living_room: number | null;
  restroom: number | null;
  unit_invite: number | null;
  carpark_code: string | null;
  space_invite: number | null;
  shop_code: string | null;
  shop_invite: number | null;
  person_name: string;
  gender: number;
  images: unknown;
}

function toAsset(r: RawAsset): PersonAsset {
  const images = (typeof r.images === 'string' ? JSON.parse(r.images) : r.images) as { url: string }[];
  return {
    personHouseId: r.id,
    type: r.house_type,
    identity: r.identity,
    unit:
      r.unit_name === null
        ? null
        : {
            buildName: r.build_name ?? '',
            floorName: r.floor_name ?? '',
            name: r.unit_name,
            room: r.room,
            livingRoom: r.living_room,
            restroom: r.restroom,
            invitePerson: r.unit_invite,
          },
    carpark: r.carpark_code === null ? null : { carparkCode: r.carpark_code, invitePerson: r.space_invite },
    shop: r.shop_code === null ? null : { shopCode: r.shop_code, invitePerson: r.shop_invite },
    person: { name: r.person_name, gender: r.gender, images: images ?? [] },
    houseCertCode: r.house_cert_code,
    // Certificate pictures are private: the staff-only route, never the stored upload path.
    houseCertImg: r.house_cert_img ? `/base/personhouse/certimg/${r.id}` : null,
  };
}

/** The approved houses of a person in the caller's estate, houses of each type together. */
export async function personAssets(db: DbOrTx, tenant: TenantScope, personId: number): Promise<PersonAsset[]> {
  const rows = await queryRows<RawAsset>(
    db,
    sql`select ph.id, ph.house_type, ph.identity, ph.house_cert_code, ph.house_cert_img,
          b.name as build_name, f.name as floor_name, u.name as unit_name, u.room, u.living_room, u.restroom,
          u.invite_person as unit_invite, cs.carpark_code, cs.invite_person as space_invite,
          s.shop_code, s.invite_person as shop_invite, p.name as person_name, p.gender, p.images
        from person_house ph
          join person p on p.id = ph.person_id
          left join unit u on u.id = ph.unit_id
          left join floor f on f.id = u.floor_id
          left join block b on b.id = u.block_id
          left join car_space cs on cs.id = ph.car_space_id
          left join shop s on s.id = ph.shop_id
        where ph.person_id = ${personId} and ph.status = 2
          and ph.company_id = ${tenant.companyId} and ph.housing_estate_id = ${tenant.housingEstateId}
        order by ph.house_type, ph.id`,
  );
  return rows.map(toAsset);
}

/** The unit, parking space and shop id columns of a join, only the house type's one set. */
export interface HouseIds {
  unitId: number | null;
  carSpaceId: number | null;
  shopId: number | null;
}

/** Whether the person already asked for or has the house (a pending or approved link). */
export async function hasOpenLink(db: DbOrTx, personId: number, houseType: number, houseId: number): Promise<boolean> {
  const column = houseType === 2 ? personHouse.carSpaceId : houseType === 3 ? personHouse.shopId : personHouse.unitId;
  const existing = await db
    .select({ id: personHouse.id })
    .from(personHouse)
    .where(
      and(
        eq(personHouse.personId, personId),
        eq(column, houseId),
        inArray(personHouse.status, [JoinStatus.pending, JoinStatus.approved]),
      ),
    );
  return existing.length > 0;
}

/** A request to join a house and its history record; answers both ids. */
export async function insertJoinRequest(
  tx: DbOrTx,
  join: {
    companyId: number;
    housingEstateId: number;
    personId: number;
    houseType: number;
    ids: HouseIds;
    identity: number;
    relation?: number | null;
    status: number;
    houseCertCode?: string | null;
    houseCertImg?: string | null;
    operationType: number;
    /** Who made the link (default: the person themselves). */
    operatorPersonId?: number;
  },
): Promise<{ personHouseId: number; historyId: number }> {
  const [link] = await tx
    .insert(personHouse)
    .values({
      companyId: join.companyId,
      housingEstateId: join.housingEstateId,
      personId: join.personId,
      houseType: join.houseType,
      ...join.ids,
      identity: join.identity,
      relation: join.relation ?? null,
      status: join.status,
      houseCertCode: join.houseCertCode ?? null,
      houseCertImg: join.houseCertImg ?? null,
    })
    .returning({ id: personHouse.id });
  const [history] = await tx
    .insert(personHouseHistory)
    .values({
      companyId: join.companyId,
      housingEstateId: join.housingEstateId,
      personId: join.personId,
      houseType: join.houseType,
      ...join.ids,
      identity: join.identity,
      purchaseTime: new Date(),
      operatorPersonId: join.operatorPersonId ?? join.personId,
      operationType: join.operationType,
    })
    .returning({ id: personHouseHistory.id });
  return { personHouseId: link.id, historyId: history.id };
}

/** Whether the person uploaded the file at `path` themselves (a certificate picture they join with). */
export async function uploadedBy(db: DbOrTx, personId: number, path: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from upload_file where person_id = ${personId} and (path = ${path} or '/api' || path = ${path}) limit 1`,
  );
  return rows.length > 0;
}
