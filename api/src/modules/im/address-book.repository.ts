import { sql, type SQL } from 'drizzle-orm';
import { JoinStatus, WorkStatus } from '@pm/shared';
import type { DbOrTx, Tx } from '../../db/open-database';
import { isoOrNull as iso, likePattern, queryRows } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';
import { pinyinKeys } from './pinyin';

/**
 * The SQL of the address book (staff by department, residents by house), its residents' settings
 * and the chat's side panel. Departments and staff are the enterprise area's tables
 * (department, person_company), read as they are.
 */

type Images = { url: string }[];
const images = (v: unknown): Images => ((typeof v === 'string' ? JSON.parse(v) : v) ?? []) as Images;

/** A name-or-phone search, with the Pinyin keys when the switch is on. */
export interface PersonSearch {
  key?: string;
  pinyinKey?: string;
}

function personMatch(p: string, s: PersonSearch): SQL {
  if (!s.key) return sql`true`;
  const like = likePattern(s.key);
  const person = sql.raw(p);
  const pinyin = s.pinyinKey
    ? sql`or exists (select 1 from im_person_pinyin pp where pp.person_id = ${person}.id and pp.keys like ${likePattern(s.pinyinKey)})`
    : sql``;
  return sql`(${person}.name ilike ${like} or ${person}.tel ilike ${like} ${pinyin})`;
}

/**
 * Brings the Pinyin keys of the estate's persons up to date (new persons, changed names), before
 * a Pinyin search. Only the persons whose keys are missing or stale are computed.
 */
export async function refreshPinyin(db: DbOrTx, tenant: TenantScope): Promise<void> {
  const stale = await queryRows<{ id: number; name: string }>(
    db,
    sql`select p.id, p.name from person p left join im_person_pinyin pp on pp.person_id = p.id
        where p.company_id = ${tenant.companyId} and p.housing_estate_id = ${tenant.housingEstateId}
          and (pp.person_id is null or pp.name <> p.name)
        limit 20000`,
  );
  for (let i = 0; i < stale.length; i += 500) {
    const batch = stale.slice(i, i + 500);
    await db.execute(
      sql`insert into im_person_pinyin (person_id, name, keys) values ${sql.join(
        batch.map((p) => sql`(${p.id}, ${p.name}, ${pinyinKeys(p.name)})`),
        sql`, `,
      )} on conflict (person_id) do update set name = excluded.name, keys = excluded.keys`,
    );
  }
}

export interface StaffRow {
  personId: number;
  name: string;
  images: Images;
  tel: string | null;
  position: string | null;
  staffNumber: string | null;
  departmentId: number | null;
  departmentName: string | null;
}

/** The estate's staff (person_company) with their department, departments in their order, staff by name. */
export async function listStaff(db: DbOrTx, tenant: TenantScope, s: PersonSearch): Promise<StaffRow[]> {
  const rows = await queryRows<{
    id: number;
    name: string;
    images: unknown;
    tel: string | null;
    position: string | null;
    staff_number: string | null;
    department_id: number | null;
    department_name: string | null;
  }>(
    db,
    sql`select p.id, p.name, p.images, p.tel, pc.position, pc.staff_number, d.id as department_id, d.name as department_name
        from person_company pc
          join person p on p.id = pc.person_id
          left join department d on d.id = pc.department_id and d.housing_estate_id = pc.housing_estate_id
        where pc.company_id = ${tenant.companyId} and pc.housing_estate_id = ${tenant.housingEstateId}
          and ${personMatch('p', s)}
        order by d.sort nulls last, d.id nulls last, p.name, p.id`,
  );
  return rows.map((r) => ({
    personId: r.id,
    name: r.name,
    images: images(r.images),
    tel: r.tel,
    position: r.position,
    staffNumber: r.staff_number,
    departmentId: r.department_id,
    departmentName: r.department_name,
  }));
}

/** The estate's departments in their order. */
export async function listDepartments(db: DbOrTx, tenant: TenantScope): Promise<{ id: number; name: string }[]> {
  return queryRows<{ id: number; name: string }>(
    db,
    sql`select id, name from department where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
        order by sort, id`,
  );
}

export interface ResidentRow {
  personHouseId: number;
  personId: number;
  name: string;
  images: Images;
  tel: string | null;
  identity: number;
  houseType: number;
  houseId: number;
  buildName: string | null;
  floorName: string | null;
  unitName: string | null;
  carParkCode: string | null;
  shopCode: string | null;
}

/** Approved residents of the estate by house: units by block, floor and unit; car park spaces; shops. */
export async function listResidents(
  db: DbOrTx,
  tenant: TenantScope,
  s: PersonSearch & { houseType?: number },
  limit: number,
  offset: number,
): Promise<{ rows: ResidentRow[]; total: number }> {
  const where = sql`ph.company_id = ${tenant.companyId} and ph.housing_estate_id = ${tenant.housingEstateId}
      and ph.status = ${JoinStatus.approved} ${s.houseType ? sql`and ph.house_type = ${s.houseType}` : sql``}
      and ${personMatch('p', s)}`;
  const [count, rows] = await Promise.all([
    queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from person_house ph join person p on p.id = ph.person_id where ${where}`,
    ),
    queryRows<{
      id: number;
      person_id: number;
      name: string;
      images: unknown;
      tel: string | null;
      identity: number;
      house_type: number;
      house_id: number;
      build_name: string | null;
      floor_name: string | null;
      unit_name: string | null;
      carpark_code: string | null;
      shop_code: string | null;
    }>(
      db,
      sql`select ph.id, ph.person_id, p.name, p.images, p.tel, ph.identity, ph.house_type,
            coalesce(ph.unit_id, ph.car_space_id, ph.shop_id) as house_id,
            b.name as build_name, f.name as floor_name, u.name as unit_name, cs.carpark_code, sh.shop_code
          from person_house ph
            join person p on p.id = ph.person_id
            left join unit u on u.id = ph.unit_id
            left join floor f on f.id = u.floor_id
            left join block b on b.id = u.block_id
            left join car_space cs on cs.id = ph.car_space_id
            left join shop sh on sh.id = ph.shop_id
          where ${where}
          order by ph.house_type, b.number, b.name, f.number, u.name, cs.carpark_code, sh.shop_code, ph.identity, p.name, ph.id
          limit ${limit} offset ${offset}`,
    ),
  ]);
  return {
    total: count[0]?.n ?? 0,
    rows: rows.map((r) => ({
      personHouseId: r.id,
      personId: r.person_id,
      name: r.name,
      images: images(r.images),
      tel: r.tel,
      identity: r.identity,
      houseType: r.house_type,
      houseId: r.house_id,
      buildName: r.build_name,
      floorName: r.floor_name,
      unitName: r.unit_name,
      carParkCode: r.carpark_code,
      shopCode: r.shop_code,
    })),
  };
}

/** A person's approved houses in the estate, in house order. */
export async function residentHouses(db: DbOrTx, tenant: TenantScope, personId: number) {
  const rows = await queryRows<{
    id: number;
    house_type: number;
    house_id: number;
    identity: number;
    build_name: string | null;
    floor_name: string | null;
    unit_name: string | null;
    carpark_code: string | null;
    shop_code: string | null;
  }>(
    db,
    sql`select ph.id, ph.house_type, coalesce(ph.unit_id, ph.car_space_id, ph.shop_id) as house_id, ph.identity,
          b.name as build_name, f.name as floor_name, u.name as unit_name, cs.carpark_code, sh.shop_code
        from person_house ph
          left join unit u on u.id = ph.unit_id
          left join floor f on f.id = u.floor_id
          left join block b on b.id = u.block_id
          left join car_space cs on cs.id = ph.car_space_id
          left join shop sh on sh.id = ph.shop_id
        where ph.person_id = ${personId} and ph.status = ${JoinStatus.approved}
          and ph.company_id = ${tenant.companyId} and ph.housing_estate_id = ${tenant.housingEstateId}
        order by ph.house_type, ph.id`,
  );
  return rows.map((r) => ({
    personHouseId: r.id,
    houseType: r.house_type,
    houseId: r.house_id,
    identity: r.identity,
    buildName: r.build_name,
    floorName: r.floor_name,
    unitName: r.unit_name,
    carParkCode: r.carpark_code,
    shopCode: r.shop_code,
  }));
}

/** Name and phone of a person of the estate, or null. */
export async function estatePerson(
  db: DbOrTx,
  tenant: TenantScope,
  personId: number,
): Promise<{ name: string; tel: string | null } | null> {
  const [row] = await queryRows<{ name: string; tel: string | null }>(
    db,
    sql`select name, tel from person where id = ${personId} and company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  return row ?? null;
}

export interface WorkBrief {
  id: number;
  code: string;
  name: string;
  status: number;
  reportTime: string;
}

/** A person's open (untreated, processing) complaints or work orders, newest first. */
export async function openWorkOf(
  db: DbOrTx,
  tenant: TenantScope,
  table: 'complain' | 'event_order',
  personId: number,
): Promise<WorkBrief[]> {
  const code = table === 'complain' ? 'complain_code' : 'event_code';
  const status = table === 'complain' ? 'complain_status' : 'event_status';
  const rows = await queryRows<{ id: number; code: string; name: string; status: number; report_time: unknown }>(
    db,
    sql`select id, ${sql.raw(code)} as code, name, ${sql.raw(status)} as status, report_time from ${sql.raw(table)}
        where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
          and report_person_id = ${personId} and ${sql.raw(status)} in (${WorkStatus.untreated}, ${WorkStatus.processing})
        order by report_time desc, id desc limit 20`,
  );
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    name: r.name,
    status: r.status,
    reportTime: iso(r.report_time) as string,
  }));
}

// ---- the residents' address book (settings) ----

export interface BookEntry {
  kind: number;
  id: number;
  title: string;
  name: string;
}

export interface Book {
  title: string;
  showPhone: boolean;
  updatedAt: string | null;
  entries: BookEntry[];
}

/** The estate's residents' address book; null until it was saved once. */
export async function readBook(db: DbOrTx, tenant: TenantScope): Promise<Book | null> {
  const [book] = await queryRows<{ title: string; show_phone: boolean; updated_at: unknown }>(
    db,
    sql`select title, show_phone, updated_at from im_address_book
        where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  if (!book) return null;
  // Entries whose department or person is gone (deleted in enterprise management) drop out.
  const entries = await queryRows<{ kind: number; id: number; title: string | null; name: string }>(
    db,
    sql`select e.kind, coalesce(e.department_id, e.person_id) as id, e.title, coalesce(d.name, p.name) as name
        from im_address_book_entry e
          left join department d on e.kind = 1 and d.id = e.department_id and d.housing_estate_id = e.housing_estate_id
          left join person_company pc on e.kind = 2 and pc.person_id = e.person_id
            and pc.company_id = e.company_id and pc.housing_estate_id = e.housing_estate_id
          left join person p on p.id = pc.person_id
        where e.company_id = ${tenant.companyId} and e.housing_estate_id = ${tenant.housingEstateId}
          and coalesce(d.name, p.name) is not null
        order by e.sort, e.id`,
  );
  return {
    title: book.title,
    showPhone: book.show_phone,
    updatedAt: iso(book.updated_at),
    entries: entries.map((e) => ({ kind: e.kind, id: e.id, title: e.title ?? '', name: e.name })),
  };
}

/** Which of these department ids and staff person ids belong to the estate. */
export async function knownEntries(
  db: DbOrTx,
  tenant: TenantScope,
  departmentIds: number[],
  personIds: number[],
): Promise<{ departments: Set<number>; staff: Set<number> }> {
  const list = (v: number[]) =>
    sql.join(
      v.map((i) => sql`${i}`),
      sql`, `,
    );
  const [departments, staff] = await Promise.all([
    departmentIds.length
      ? queryRows<{ id: number }>(
          db,
          sql`select id from department where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
              and id in (${list(departmentIds)})`,
        )
      : [],
    personIds.length
      ? queryRows<{ id: number }>(
          db,
          sql`select person_id as id from person_company where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
              and person_id in (${list(personIds)})`,
        )
      : [],
  ]);
  return { departments: new Set(departments.map((r) => r.id)), staff: new Set(staff.map((r) => r.id)) };
}

/** Replaces the estate's residents' address book (one transaction). */
export async function saveBook(
  tx: Tx,
  tenant: TenantScope,
  by: number,
  book: { title: string; showPhone: boolean; entries: { kind: number; id: number; title?: string }[] },
): Promise<void> {
  await tx.execute(
    sql`insert into im_address_book (company_id, housing_estate_id, title, show_phone, updated_at, updated_by)
        values (${tenant.companyId}, ${tenant.housingEstateId}, ${book.title}, ${book.showPhone}, now(), ${by})
        on conflict (housing_estate_id) do update
          set title = excluded.title, show_phone = excluded.show_phone, updated_at = now(), updated_by = excluded.updated_by`,
  );
  await tx.execute(
    sql`delete from im_address_book_entry where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  if (book.entries.length === 0) return;
  await tx.execute(
    sql`insert into im_address_book_entry (company_id, housing_estate_id, kind, department_id, person_id, title, sort)
        values ${sql.join(
          book.entries.map(
            (e, i) =>
              sql`(${tenant.companyId}, ${tenant.housingEstateId}, ${e.kind}, ${e.kind === 1 ? e.id : null}, ${e.kind === 2 ? e.id : null}, ${e.title || null}, ${i})`,
          ),
          sql`, `,
        )}`,
  );
}
