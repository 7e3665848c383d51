import { sql } from 'drizzle-orm';
import type { BuildLogRow } from '@pm/shared';
import type { DbOrTx } from '../../db/database-types';
import { isoOrNull, queryRows } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';
import { newInviteCode } from '../person/invite-code';

/** The SQL of Excel imports: what a file's rows are checked against, the batched inserts, the build log. */

const BATCH = 1000;
const key = (...parts: (string | number)[]) => parts.map((p) => String(p).toLowerCase()).join('\u0000');
export { key as importKey };

/** The estate's blocks by name, floors by block and name (or number), and unit names by floor. */
export async function unitLookups(db: DbOrTx, tenant: TenantScope) {
  const blocks = await queryRows<{ id: number; name: string }>(
    db,
    sql`select id, name from block where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  const floors = await queryRows<{ id: number; block_id: number; name: string; number: number }>(
    db,
    sql`select f.id, f.block_id, f.name, f.number from floor f
        where f.company_id = ${tenant.companyId} and f.housing_estate_id = ${tenant.housingEstateId}`,
  );
  const units = await queryRows<{ floor_id: number; name: string }>(
    db,
    sql`select floor_id, name from unit where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  const floorOf = new Map<string, number>();
  for (const f of floors) {
    floorOf.set(key(f.block_id, f.name), f.id);
    if (!floorOf.has(key(f.block_id, f.number))) floorOf.set(key(f.block_id, f.number), f.id);
  }
  return {
    blockOf: new Map(blocks.map((b) => [key(b.name), b.id])),
    floorOf,
    unitNames: new Set(units.map((u) => key(u.floor_id, u.name))),
  };
}

export async function carParkLookups(db: DbOrTx, tenant: TenantScope) {
  const parks = await queryRows<{ id: number; name: string }>(
    db,
    sql`select id, name from car_park where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  const codes = await queryRows<{ code: string }>(
    db,
    sql`select carpark_code as code from car_space where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  return { parkOf: new Map(parks.map((p) => [key(p.name), p.id])), codes: new Set(codes.map((c) => key(c.code))) };
}

export async function shopCodes(db: DbOrTx, tenant: TenantScope): Promise<Set<string>> {
  const codes = await queryRows<{ code: string }>(
    db,
    sql`select shop_code as code from shop where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  return new Set(codes.map((c) => key(c.code)));
}

export interface UnitImportRow {
  blockId: number;
  floorId: number;
  name: string;
  room: number;
  livingRoom: number;
  restroom: number;
  invitePerson: number;
}
export interface SpaceImportRow {
  carParkId: number;
  code: string;
  type: number;
  plate: string | null;
  invitePerson: number;
}
export interface ShopImportRow {
  code: string;
  name: string;
  invitePerson: number;
}

async function inBatches<T>(rows: T[], write: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += BATCH) await write(rows.slice(i, i + BATCH));
}

export async function insertUnits(tx: DbOrTx, tenant: TenantScope, rows: UnitImportRow[]): Promise<void> {
  await inBatches(rows, (batch) =>
    tx.execute(sql`insert into unit (company_id, housing_estate_id, block_id, floor_id, name, room, living_room, restroom, invite_person, invite_code)
      values ${sql.join(
        batch.map(
          (r) =>
            sql`(${tenant.companyId}, ${tenant.housingEstateId}, ${r.blockId}, ${r.floorId}, ${r.name}, ${r.room}, ${r.livingRoom}, ${r.restroom}, ${r.invitePerson}, ${newInviteCode()})`,
        ),
        sql`, `,
      )}`),
  );
}

export async function insertSpaces(tx: DbOrTx, tenant: TenantScope, rows: SpaceImportRow[]): Promise<void> {
  await inBatches(rows, (batch) =>
    tx.execute(sql`insert into car_space (company_id, housing_estate_id, car_park_id, carpark_code, type, plate, invite_person, invite_code)
      values ${sql.join(
        batch.map(
          (r) =>
            sql`(${tenant.companyId}, ${tenant.housingEstateId}, ${r.carParkId}, ${r.code}, ${r.type}, ${r.plate}, ${r.invitePerson}, ${newInviteCode()})`,
        ),
        sql`, `,
      )}`),
  );
}

export async function insertShops(tx: DbOrTx, tenant: TenantScope, rows: ShopImportRow[]): Promise<void> {
  await inBatches(rows, (batch) =>
    tx.execute(sql`insert into shop (company_id, housing_estate_id, shop_code, name, invite_person, invite_code)
      values ${sql.join(
        batch.map(
          (r) =>
            sql`(${tenant.companyId}, ${tenant.housingEstateId}, ${r.code}, ${r.name}, ${r.invitePerson}, ${newInviteCode()})`,
        ),
        sql`, `,
      )}`),
  );
}

export async function insertBuildLog(
  db: DbOrTx,
  tenant: TenantScope,
  entry: {
    personId: number;
    kind: number;
    action: string;
    fileName: string | null;
    total: number;
    written: number;
    failed: number;
  },
): Promise<void> {
  await db.execute(
    sql`insert into build_log (company_id, housing_estate_id, person_id, kind, action, file_name, total, written, failed)
        values (${tenant.companyId}, ${tenant.housingEstateId}, ${entry.personId}, ${entry.kind}, ${entry.action},
                ${entry.fileName}, ${entry.total}, ${entry.written}, ${entry.failed})`,
  );
}

export async function listBuildLog(
  db: DbOrTx,
  tenant: TenantScope,
  kind: number | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: BuildLogRow[]; total: number }> {
  const where = sql`l.company_id = ${tenant.companyId} and l.housing_estate_id = ${tenant.housingEstateId}
    ${kind ? sql`and l.kind = ${kind}` : sql``}`;
  const rows = await queryRows<{
    id: number;
    person_id: number;
    person_name: string | null;
    kind: number;
    action: string;
    file_name: string | null;
    total: number;
    written: number;
    failed: number;
    created_at: unknown;
  }>(
    db,
    sql`select l.id, l.person_id, p.name as person_name, l.kind, l.action, l.file_name, l.total, l.written, l.failed, l.created_at
        from build_log l left join person p on p.id = l.person_id where ${where}
        order by l.created_at desc, l.id desc limit ${limit} offset ${offset}`,
  );
  const [{ n }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from build_log l where ${where}`);
  return {
    rows: rows.map((r) => ({
      buildLogId: r.id,
      personId: r.person_id,
      personName: r.person_name,
      kind: r.kind,
      action: r.action,
      fileName: r.file_name,
      total: r.total,
      written: r.written,
      failed: r.failed,
      createdAt: isoOrNull(r.created_at) ?? '',
    })),
    total: n,
  };
}
