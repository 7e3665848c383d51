// Owners and residents (issue 19) beyond the feature-kit template: the owner-review tabs' counts
// (kept by the database in person_house_total) and the privacy of the seeded demo certificates.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { demoImagePath, hideDemoCertificates } from '../src/seed/demo-images';
import {
  otherTenant,
  roleWith,
  signInAll,
  staffWithRole,
  startTestApi,
  testEngines,
  type Session,
  type TestApi,
} from './kit';

/** The migration that adds person_house_total (its number changes when migrations are merged). */
const DRIZZLE = join(import.meta.dirname, '../drizzle');
const MIGRATION = readdirSync(DRIZZLE)
  .filter((f) => f.endsWith('.sql'))
  .map((f) => readFileSync(join(DRIZZLE, f), 'utf8'))
  .find((text) => text.includes('CREATE TABLE "person_house_total"'))!;

describe.each(testEngines())('owners review totals and demo certificates on %s', (engine) => {
  let api: TestApi;
  let s: Record<'admin' | 'owner' | 'tenant' | 'relative', Session>;
  let other: { admin: Session; staff: Session };

  type Totals = { pending: number; certified: number; refused: number };
  const totals = async (who: Session) => {
    const res = await who.get('/base/personhouse/totals');
    expect(res.status).toBe(200);
    return res.body.data as Totals;
  };
  /** What the tabs must show, counted from the rows themselves. */
  const counted = async (estateId: number): Promise<Totals> => {
    const rows = await queryRows<{ status: number; n: number }>(
      api.db,
      sql`select status, count(*)::int as n from person_house where housing_estate_id = ${estateId} group by status`,
    );
    const of = (st: number) => rows.find((r) => r.status === st)?.n ?? 0;
    return { pending: of(1), certified: of(2), refused: of(3) };
  };
  const pageTotal = async (status: number, extra: object = {}) =>
    (await s.admin.post('/base/personhouse/page', { page: 1, limit: 10, status, ...extra })).body.data.total as number;

  beforeAll(async () => {
    api = await startTestApi(engine);
    [s, other] = await Promise.all([
      signInAll(api, { admin: 'admin', owner: 'resident1', tenant: 'resident2', relative: 'resident3' }),
      otherTenant(api),
    ]);
  });
  afterAll(async () => api?.close());

  it('when requests arrive, are certified, refused and removed, then the tab counts follow the rows exactly and stay within the estate', async () => {
    const before = await totals(s.admin);
    expect(before).toEqual(await counted(1));
    expect(before.pending).toBeGreaterThan(0);
    expect(before.certified).toBeGreaterThan(before.pending);
    const otherBefore = await totals(other.admin);
    expect(otherBefore).toEqual(await counted(2));

    const units = await queryRows<{ id: number; invite_code: string }>(
      api.db,
      sql`select u.id, u.invite_code from unit u where u.housing_estate_id = 1
          and not exists (select 1 from person_house ph where ph.unit_id = u.id) order by u.id limit 3`,
    );
    const join = async (who: Session, unit: { invite_code: string }) =>
      (await who.post('/app/personhouse/join', { inviteCode: unit.invite_code, identity: 1 })).body.data
        .personHouseId as number;
    const a = await join(s.owner, units[0]);
    const b = await join(s.tenant, units[1]);
    const c = await join(s.relative, units[2]);
    expect(await totals(s.admin)).toEqual({ ...before, pending: before.pending + 3 });

    expect((await s.admin.post('/base/personhouse/review', { personHouseId: a, status: 2 })).status).toBe(200);
    expect(
      (await s.admin.post('/base/personhouse/review', { personHouseId: b, status: 3, refuseReason: 'No deed' })).status,
    ).toBe(200);
    expect((await s.admin.post('/base/personhouse/remove', { personHouseId: c })).status).toBe(200);
    const after = await totals(s.admin);
    expect(after).toEqual({
      pending: before.pending,
      certified: before.certified + 1,
      refused: before.refused + 1,
    });
    expect(after).toEqual(await counted(1));
    // The tabs' lists agree with their counts: unfiltered totals come from the counters, filtered ones are counted.
    expect(await pageTotal(1)).toBe(after.pending);
    expect(await pageTotal(2)).toBe(after.certified);
    expect(await pageTotal(3)).toBe(after.refused);
    expect(await pageTotal(3, { keyword: 'no-such-person-anywhere' })).toBe(0);
    expect(await pageTotal(2, { houseType: 1 })).toBe(
      (
        await queryRows<{ n: number }>(
          api.db,
          sql`select count(*)::int as n from person_house where housing_estate_id = 1 and status = 2 and house_type = 1`,
        )
      )[0].n,
    );
    // The other estate's counts did not move, and a staff account without the list permissions gets 403.
    expect(await totals(other.admin)).toEqual(otherBefore);
    const blind = await staffWithRole(api, s.admin, await roleWith(s.admin, (p) => !/^(unit|carpark|shop):/.test(p)));
    expect((await blind.get('/base/personhouse/totals')).status).toBe(403);
    expect((await s.owner.get('/base/personhouse/totals')).status).toBe(403);
  });

  it('when staff search the certified tab by name, phone or certificate code, then exactly the matching links of the estate are listed', async () => {
    const [link] = await queryRows<{ id: number; name: string; tel: string; house_cert_code: string }>(
      api.db,
      sql`select ph.id, p.name, p.tel, ph.house_cert_code from person_house ph join person p on p.id = ph.person_id
          where ph.housing_estate_id = 1 and ph.status = 2 and ph.house_cert_code is not null and p.tel is not null
          order by ph.id limit 1`,
    );
    const search = async (keyword: string) => {
      const res = await s.admin.post('/base/personhouse/page', { page: 1, limit: 100, status: 2, keyword });
      expect(res.status).toBe(200);
      return res.body.data as { total: number; list: { personHouseId: number }[] };
    };
    const expected = async (keyword: string) =>
      (
        await queryRows<{ id: number }>(
          api.db,
          sql`select ph.id from person_house ph join person p on p.id = ph.person_id
              where ph.housing_estate_id = 1 and ph.status = 2 and (p.name ilike ${`%${keyword}%`}
                or p.tel ilike ${`%${keyword}%`} or ph.house_cert_code ilike ${`%${keyword}%`}) order by ph.id`,
        )
      ).map((r) => r.id);
    for (const keyword of [link.name.slice(1, 6), link.tel.slice(-6), link.house_cert_code]) {
      const found = await search(keyword);
      const ids = await expected(keyword);
      expect(ids, keyword).toContain(link.id);
      expect(found.total, keyword).toBe(ids.length);
      expect(
        found.list.map((r) => r.personHouseId).sort((x, y) => x - y),
        keyword,
      ).toEqual(ids);
    }
    expect((await search('%')).total).toBe(0);
    // The other estate's staff do not find this estate's link by its certificate code.
    const theirs = await other.admin.post('/base/personhouse/page', {
      page: 1,
      limit: 100,
      status: 2,
      keyword: link.house_cert_code,
    });
    expect(theirs.body.data.list.map((r: { personHouseId: number }) => r.personHouseId)).not.toContain(link.id);
  });

  it("when the demo estate is seeded, then its certificate pictures are private: no public file URL serves them, the estate's staff with the view permission get them, another estate's staff do not", async () => {
    const seeded = await queryRows<{ id: number; house_cert_img: string }>(
      api.db,
      sql`select id, house_cert_img from person_house where housing_estate_id = 1 and house_cert_img is not null order by id`,
    );
    expect(seeded.length).toBeGreaterThan(0);
    for (const link of seeded) {
      expect(link.house_cert_img).toMatch(/^\/upload\/files\/housecert\//);
      for (const path of [link.house_cert_img, link.house_cert_img.replace('/housecert/', '/demo/')]) {
        expect((await api.http.get(path)).status, path).toBe(404);
        expect((await api.http.get('/upload/image').query({ imageUrl: path })).status, path).toBe(404);
      }
      const got = await api.http.get(`/base/personhouse/certimg/${link.id}`).set(s.admin.headers).buffer(true);
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect((got.body as Buffer).length).toBeGreaterThan(100);
      expect([403, 404]).toContain((await other.admin.get(`/base/personhouse/certimg/${link.id}`)).status);
      expect([403, 404]).toContain((await other.staff.get(`/base/personhouse/certimg/${link.id}`)).status);
    }
    const noView = await staffWithRole(api, s.admin, await roleWith(s.admin, (p) => p !== 'unit:view'));
    expect((await noView.get(`/base/personhouse/certimg/${seeded[0].id}`)).status).toBe(403);
    // The answers name the private route only.
    const listed = (await s.admin.post('/base/personhouse/page', { page: 1, limit: 50 })).body.data.list as {
      houseCertImg: string | null;
    }[];
    expect(listed.some((r) => r.houseCertImg)).toBe(true);
    for (const r of listed) if (r.houseCertImg) expect(r.houseCertImg).toMatch(/^\/base\/personhouse\/certimg\/\d+$/);
  });

  it('when an older demo install has certificates in the public demo folder, then the migration rewrites their paths and the api moves the files out of it', async () => {
    const [link] = await queryRows<{ id: number; house_cert_img: string }>(
      api.db,
      sql`select id, house_cert_img from person_house where house_cert_img is not null order by id limit 1`,
    );
    const legacy = link.house_cert_img.replace('/housecert/', '/demo/');
    await api.db.execute(sql`update person_house set house_cert_img = ${legacy} where id = ${link.id}`);
    const rewrite = MIGRATION.split('--> statement-breakpoint').find((st) => /UPDATE person_house/.test(st))!;
    await api.db.execute(sql.raw(rewrite));
    const [after] = await queryRows<{ house_cert_img: string }>(
      api.db,
      sql`select house_cert_img from person_house where id = ${link.id}`,
    );
    expect(after.house_cert_img).toBe(link.house_cert_img);

    const dir = await mkdtemp(join(tmpdir(), 'demo-certs-'));
    try {
      const key = (p: string) => p.replace('/upload/files/', '');
      const certificate = key(demoImagePath('cert-1'));
      const avatar = key(demoImagePath('avatar-0'));
      const oldCertificate = certificate.replace(/^housecert\//, 'demo/');
      for (const k of [oldCertificate, avatar]) {
        await mkdir(join(dir, k, '..'), { recursive: true });
        await writeFile(join(dir, k), k);
      }
      await hideDemoCertificates(dir);
      await expect(readFile(join(dir, oldCertificate))).rejects.toThrow();
      expect(await readFile(join(dir, certificate), 'utf8')).toBe(oldCertificate);
      expect(await readFile(join(dir, avatar), 'utf8')).toBe(avatar);
      await hideDemoCertificates(dir); // a second start changes nothing
      expect(await readFile(join(dir, certificate), 'utf8')).toBe(oldCertificate);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
