// The display of a complaint's or work order's row (the reporter's name and avatar; the unit,
// floor and block names; the car space's and shop's codes) is kept on the row by migration 0045's
// triggers, so the list page and the record read the work table alone (issue 34, part 16). Every
// row of the demo estate, both kinds, in the list pages and by id, must stay byte for byte the JSON
// of the read with the joins it replaced (test/kit/work-detail-before.ts) after each kind of
// rename, a unit moved to another floor and block, a house deleted, and on new rows. Pages are
// not kept here (keepListPages: 0), so every read is the statement's.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { COMPLAINT, EVENT_ORDER, type WorkKind } from '@pm/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { signIn, signInResident, startTestApi, testEngines, type Session, type TestApi } from './kit';
import { findWorkBefore } from './kit/work-detail-before';
import { listRowJsonSql } from '../src/modules/work-orders/work-orders.repository';

const KINDS = [COMPLAINT, EVENT_ORDER];

describe.each(testEngines())('the row display kept on complaints and work orders on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let tenant: { companyId: number; housingEstateId: number };

  beforeAll(async () => {
    api = await startTestApi(engine, { keepListPages: 0 });
    admin = await signIn(api, 'admin');
    [tenant] = await queryRows<{ companyId: number; housingEstateId: number }>(
      api.db,
      sql`select company_id as "companyId", housing_estate_id as "housingEstateId" from person where id = ${admin.personId}`,
    );
  });
  afterAll(async () => api?.close());

  /** Every row of the estate through the list's pages (newest first), as the answer's JSON text of each row. */
  async function listed(k: WorkKind): Promise<Map<number, string>> {
    const rows = new Map<number, string>();
    for (let page = 1; ; page++) {
      const res = await admin.post(`${k.path}/query/list`, { page, limit: 50 });
      expect(res.status).toBe(200);
      const data = res.body.data as { list: Record<string, unknown>[]; totalPage: number };
      for (const row of data.list) rows.set(row[k.idField] as number, JSON.stringify(row));
      if (page >= data.totalPage) return rows;
    }
  }

  /** Every row of both kinds, in the list and by id, is what the read with joins gives; returns how many. */
  async function expectAllAsBefore(): Promise<number> {
    let compared = 0;
    for (const k of KINDS) {
      const rows = await listed(k);
      const [{ n }] = await queryRows<{ n: number }>(
        api.db,
        sql`select count(*)::int as n from ${sql.raw(k.sql.table)}
            where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
      );
      expect(rows.size).toBe(Number(n));
      // Each row's kept list JSON (migration 0046) is, byte for byte, the object built from its fields.
      const [{ differing }] = await queryRows<{ differing: number }>(
        api.db,
        sql`select count(*)::int as differing from ${sql.raw(k.sql.table)} w
            where w.list_json is distinct from ${sql.raw(listRowJsonSql(k))}`,
      );
      expect(differing).toBe(0);
      for (const [id, text] of rows) {
        const before = (await findWorkBefore(api.db, k, tenant, id))!;
        expect(before).not.toBeNull();
        // The list row is the record's first fields, in the same order.
        const row = JSON.parse(text) as Record<string, unknown>;
        expect(text).toBe(JSON.stringify(Object.fromEntries(Object.keys(row).map((key) => [key, before[key]]))));
        expect(Object.keys(row)).toEqual(Object.keys(before).slice(0, Object.keys(row).length));
        const one = await admin.post(`${k.path}/query/id/${id}`);
        expect(one.status).toBe(200);
        expect(JSON.stringify(one.body.data)).toBe(JSON.stringify(before));
        compared++;
      }
    }
    return compared;
  }

  /** One row of a kind reported from a house of this kind (the demo estate has each). */
  async function rowWith(k: WorkKind, column: 'unit_id' | 'car_space_id' | 'shop_id') {
    const [row] = await queryRows<{ id: number; house: number; person: number }>(
      api.db,
      sql`select id, ${sql.raw(column)} as house, report_person_id as person from ${sql.raw(k.sql.table)}
          where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
            and ${sql.raw(column)} is not null order by id limit 1`,
    );
    expect(row).toBeDefined();
    return row;
  }

  /** One row as the api answers it by id. */
  async function rowOf(k: WorkKind, id: number): Promise<Record<string, unknown>> {
    const res = await admin.post(`${k.path}/query/id/${id}`);
    expect(res.status).toBe(200);
    return res.body.data as Record<string, unknown>;
  }

  it('when the estate is as seeded, then every row reads as the joins gave', async () => {
    expect(await expectAllAsBefore()).toBeGreaterThan(10);
  });

  it('when rows written before the migration are filled by it, then every row reads as the joins gave', async () => {
    // The seed ran after the migration (its rows filled by the insert trigger): empty the display
    // as rows written before it had it, then run the migration's own filling statements.
    for (const k of KINDS)
      await api.db.execute(
        sql.raw(`update ${k.sql.table} set report_person_name = null, report_person_photo = null, unit_name = null,
          floor_name = null, build_name = null, carpark_code = null, shop_code = null`),
      );
    const migration = readFileSync(new URL('../drizzle/0045_work_row_display.sql', import.meta.url), 'utf8');
    const fill = migration.slice(migration.indexOf('-- Existing rows'));
    const statements = fill.split('--> statement-breakpoint').filter((s) => /\bUPDATE\b/.test(s));
    expect(statements).toHaveLength(8);
    for (const statement of statements) await api.db.execute(sql.raw(statement));
    expect(await expectAllAsBefore()).toBeGreaterThan(10);
  });

  it('when rows written before migration 0046 are filled by it, then every row reads as the joins gave', async () => {
    // Rows as they were before 0046: no list JSON (its trigger off while emptying it).
    for (const k of KINDS) {
      await api.db.execute(sql.raw(`alter table ${k.sql.table} disable trigger ${k.sql.table}_list_json`));
      await api.db.execute(sql.raw(`update ${k.sql.table} set list_json = null`));
      await api.db.execute(sql.raw(`alter table ${k.sql.table} enable trigger ${k.sql.table}_list_json`));
    }
    const migration = readFileSync(new URL('../drizzle/0046_work_list_json.sql', import.meta.url), 'utf8');
    const fill = migration.slice(migration.indexOf('-- Existing rows'));
    const statements = fill.split('--> statement-breakpoint').filter((s) => /\bUPDATE\b/.test(s));
    expect(statements).toHaveLength(2);
    for (const statement of statements) await api.db.execute(sql.raw(statement));
    expect(await expectAllAsBefore()).toBeGreaterThan(10);
  });

  it('when a row is dealt with, then its list row follows', async () => {
    for (const k of KINDS) {
      const [{ id }] = await queryRows<{ id: number }>(
        api.db,
        sql`select id from ${sql.raw(k.sql.table)} where company_id = ${tenant.companyId}
            and housing_estate_id = ${tenant.housingEstateId} and ${sql.raw(k.sql.statusColumn)} = 1 order by id limit 1`,
      );
      expect((await admin.post(`${k.path}/updateDeal`, { [k.idField]: id, dealNote: 'on it' })).status).toBe(200);
      const page = await admin.post(`${k.path}/query/list`, { page: 1, limit: 50, status: 2 });
      const row = (page.body.data as { list: Record<string, unknown>[] }).list.find((r) => r[k.idField] === id);
      expect(row?.[k.statusField]).toBe(2);
    }
    expect(await expectAllAsBefore()).toBeGreaterThan(10);
  });

  it('when a person, unit, floor or block is renamed or a unit moves, then the rows follow', async () => {
    const { id, house: unitId, person } = await rowWith(COMPLAINT, 'unit_id');
    const work = await rowWith(EVENT_ORDER, 'unit_id');

    await api.db.execute(
      sql`update person set name = ${'Reporter "R" 改名'}, images = ${JSON.stringify([{ url: '/files/new.png' }])}::jsonb where id = ${person}`,
    );
    expect((await rowOf(COMPLAINT, id)).reportPersonName).toBe('Reporter "R" 改名');
    await api.db.execute(sql`update person set name = ${'Reporter Again'} where id = ${work.person}`);

    await api.db.execute(sql`update unit set name = ${'Unit 改'} where id = ${unitId}`);
    await api.db.execute(sql`update unit set name = ${'Unit W'} where id = ${work.house}`);
    const [unit] = await queryRows<{ floorId: number; blockId: number }>(
      api.db,
      sql`select floor_id as "floorId", block_id as "blockId" from unit where id = ${unitId}`,
    );
    await api.db.execute(sql`update floor set name = ${'Floor 改'} where id = ${unit.floorId}`);
    await api.db.execute(sql`update block set name = ${'Block 改'} where id = ${unit.blockId}`);
    expect(await rowOf(COMPLAINT, id)).toMatchObject({
      reportPersonPhoto: '/files/new.png',
      unitName: 'Unit 改',
      floorName: 'Floor 改',
      buildName: 'Block 改',
    });
    expect(await expectAllAsBefore()).toBeGreaterThan(10);

    // The unit moved to another floor of another block (a new one): its rows take their names.
    const [block] = await queryRows<{ id: number }>(
      api.db,
      sql`insert into block (company_id, housing_estate_id, name) values (${tenant.companyId}, ${tenant.housingEstateId}, 'Block New')
          returning id`,
    );
    const [floor] = await queryRows<{ id: number }>(
      api.db,
      sql`insert into floor (company_id, housing_estate_id, block_id, name, number) values (${tenant.companyId}, ${tenant.housingEstateId}, ${block.id}, 'Floor New', 99)
          returning id`,
    );
    await api.db.execute(sql`update unit set floor_id = ${floor.id}, block_id = ${block.id} where id = ${unitId}`);
    expect(await rowOf(COMPLAINT, id)).toMatchObject({ floorName: 'Floor New', buildName: 'Block New' });
    expect(await expectAllAsBefore()).toBeGreaterThan(10);
  });

  it('when a car space or a shop is renamed or a house deleted, then the rows follow', async () => {
    for (const k of KINDS) {
      const space = await rowWith(k, 'car_space_id');
      const shop = await rowWith(k, 'shop_id');
      await api.db.execute(sql`update car_space set carpark_code = ${`P-${k.kind}-改`} where id = ${space.house}`);
      await api.db.execute(sql`update shop set shop_code = ${`S-${k.kind}-改`} where id = ${shop.house}`);
      expect((await rowOf(k, space.id)).carParkCode).toBe(`P-${k.kind}-改`);
      expect((await rowOf(k, shop.id)).shopCode).toBe(`S-${k.kind}-改`);
    }
    expect(await expectAllAsBefore()).toBeGreaterThan(10);

    // Deleted houses (not something the api does; a script might): the names go, as the left joins gave.
    const space = await rowWith(COMPLAINT, 'car_space_id');
    const shop = await rowWith(EVENT_ORDER, 'shop_id');
    const unit = await rowWith(COMPLAINT, 'unit_id');
    const [u] = await queryRows<{ floorId: number }>(
      api.db,
      sql`select floor_id as "floorId" from unit where id = ${unit.house}`,
    );
    await api.db.execute(sql`delete from car_space where id = ${space.house}`);
    await api.db.execute(sql`delete from shop where id = ${shop.house}`);
    await api.db.execute(sql`delete from floor where id = ${u.floorId}`);
    expect((await rowOf(COMPLAINT, space.id)).carParkCode).toBeNull();
    expect((await rowOf(EVENT_ORDER, shop.id)).shopCode).toBeNull();
    expect((await rowOf(COMPLAINT, unit.id)).floorName).toBeNull();
    expect(await expectAllAsBefore()).toBeGreaterThan(10);
    await api.db.execute(sql`delete from unit where id = ${unit.house}`);
    expect((await rowOf(COMPLAINT, unit.id)).unitName).toBeNull();
    expect(await expectAllAsBefore()).toBeGreaterThan(10);
  });

  it('when residents file new rows, then they carry their display from the start', async () => {
    const resident = await signInResident(api, 'resident2');
    const filed = await resident.post('/app/complain/save', { name: 'New one', note: 'n', ...resident.house });
    expect(filed.status).toBe(200);
    const ordered = await resident.post('/app/eventOrder/save', {
      name: 'New order',
      note: 'n',
      type: 1,
      ...resident.house,
    });
    expect(ordered.status).toBe(200);
    const row = await rowOf(COMPLAINT, filed.body.data.complainId as number);
    expect(row.reportPersonName).toBeTruthy();
    expect(row.unitName ?? row.carParkCode ?? row.shopCode).toBeTruthy();
    expect(await expectAllAsBefore()).toBeGreaterThan(10);
  });
});
