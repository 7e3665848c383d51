// A complaint or work order by id answered as PostgreSQL's JSON text (issue 34, part 10): the
// answer must give, byte for byte once parsed, the JSON it gave before (the same object read as a
// JSON value by the driver and written out again), for every row of the demo estate in every
// state, both kinds, both engines, plain and brotli; also a name that needs escaping, the answer
// of a deal (built by the same read), and another estate's row still 404.
import { sql } from 'drizzle-orm';
import { brotliDecompressSync } from 'node:zlib';
import { COMPLAINT, EVENT_ORDER } from '@pm/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { signIn, signInResident, startTestApi, testEngines, type Session, type TestApi } from './kit';
import { findWorkBefore } from './kit/work-detail-before';

describe.each(testEngines())('one complaint or work order as JSON text on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let admin2: Session;
  let tenant: { companyId: number; housingEstateId: number };

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, admin2] = await Promise.all([signIn(api, 'admin'), signIn(api, 'admin2')]);
    [tenant] = await queryRows<{ companyId: number; housingEstateId: number }>(
      api.db,
      sql`select company_id as "companyId", housing_estate_id as "housingEstateId" from person where id = ${admin.personId}`,
    );
  });
  afterAll(async () => api?.close());

  /** The answer's data as the text on the wire, and parsed; brotli when asked. */
  async function byId(path: string, id: number, brotli = false): Promise<unknown> {
    const res = await fetch(`${api.url}${path}/query/id/${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, ...(brotli && { 'accept-encoding': 'br' }) },
    });
    expect(res.status).toBe(200);
    // fetch decodes brotli itself: take the raw bytes to be sure the body decodes as written.
    const raw = Buffer.from(await res.arrayBuffer());
    const text = res.headers.get('content-encoding') === 'br' && raw[0] !== 0x7b ? brotliDecompressSync(raw) : raw;
    return (JSON.parse(text.toString('utf8')) as { data: unknown }).data;
  }

  it('when each row of the estate is read by id, then the answer is the JSON the driver-parsed read gave', async () => {
    let compared = 0;
    for (const k of [COMPLAINT, EVENT_ORDER]) {
      const ids = await queryRows<{ id: number; status: number }>(
        api.db,
        sql`select id, ${sql.raw(k.sql.statusColumn)} as status from ${sql.raw(k.sql.table)}
            where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId} order by id`,
      );
      // The demo estate has every state (untreated, processing, completed and rated).
      expect(new Set(ids.map((r) => Number(r.status)))).toEqual(new Set([1, 2, 3]));
      for (const { id } of ids) {
        const before = await findWorkBefore(api.db, k, tenant, id);
        expect(before).not.toBeNull();
        expect(JSON.stringify(await byId(k.path, id))).toBe(JSON.stringify(before));
        expect(JSON.stringify(await byId(k.path, id, true))).toBe(JSON.stringify(before));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('when names and notes need escaping, then they come back as they were stored', async () => {
    const resident = await signInResident(api, 'resident1');
    const filed = await resident.post('/app/complain/save', {
      name: 'Block "A" 张三 \\ leak',
      note: 'line one\nline two\ttab 😀 \u2028 </script>',
      ...resident.house,
    });
    expect(filed.status).toBe(200);
    const id = filed.body.data.complainId as number;
    await api.db.execute(
      sql`update person set name = ${'Rowan "R" \\ Leung'}, images = ${JSON.stringify([{ url: '/files/a "b".png' }])}::jsonb where id = ${resident.personId}`,
    );
    const data = (await byId(COMPLAINT.path, id)) as Record<string, unknown>;
    expect(data.name).toBe('Block "A" 张三 \\ leak');
    expect(data.note).toBe('line one\nline two\ttab 😀 \u2028 </script>');
    expect(data.reportPersonName).toBe('Rowan "R" \\ Leung');
    expect(data.reportPersonPhoto).toBe('/files/a "b".png');
    expect(JSON.stringify(data)).toBe(JSON.stringify(await findWorkBefore(api.db, COMPLAINT, tenant, id)));

    // A deal answers the record as it now stands, read the same way.
    const dealt = await admin.post('/complain/updateDeal', { complainId: id, dealNote: 'On "it" \\ now' });
    expect(dealt.status).toBe(200);
    expect(JSON.stringify(dealt.body.data)).toBe(JSON.stringify(await findWorkBefore(api.db, COMPLAINT, tenant, id)));
    expect(dealt.body.data.dealNote).toBe('On "it" \\ now');

    // Another company's staff: 404, nothing of it.
    const other = await admin2.post(`/complain/query/id/${id}`);
    expect(other.status).toBe(404);
    expect(other.body.data).toBeNull();
  });
});
