// Answers and list pages kept by two api processes on one PostgreSQL (issue 34, parts 11 and 15):
// a second api on the same database drops what it kept through the bus, so once a write's push
// reached an upstream it holds, its answer by id shows the write, and a new complaint filed on one
// api reaches the other's kept list page. PostgreSQL only (PGlite is one process's database).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptCounts, openRealtime, signIn, signInResident, startTestApi, type TestApi } from './kit';

const FIRST = { page: 1, limit: 10 };
type Page = { list: { complainId: number }[]; total: number };

describe('answers and list pages kept by two apis on one PostgreSQL', () => {
  let a: TestApi;
  let b: TestApi;

  beforeAll(async () => {
    a = await startTestApi('postgres');
    // A second api on the same database: its own kept answers, the same NOTIFY bus.
    b = await startTestApi('postgres', { databaseUrl: a.databaseUrl, seed: false });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('when a write is committed on one api, then the other answers it as soon as its push arrived there', async () => {
    const [resident, staffA, staffB] = await Promise.all([
      signInResident(a, 'resident1'),
      signIn(a, 'admin'),
      signIn(b, 'admin'),
    ]);
    const filed = await resident.post('/app/complain/save', { name: 'Two apis', note: 'x', ...resident.house });
    const id = filed.body.data.complainId as number;
    await staffB.post(`/complain/query/id/${id}`);
    const before = await keptCounts(b, 'api_kept_by_id_total');
    expect((await staffB.post(`/complain/query/id/${id}`)).body.data.complainStatus).toBe(1);
    expect((await keptCounts(b, 'api_kept_by_id_total')).hit).toBe(before.hit + 1);

    // The staff member's upstream is held by b; the deal is made on a.
    const socket = await openRealtime(b, staffB);
    try {
      expect((await staffA.post('/complain/updateDeal', { complainId: id, dealNote: 'From a' })).status).toBe(200);
      await socket.waitFor((m) => m.dataId === id && m.status === 2);
      const after = (await staffB.post(`/complain/query/id/${id}`)).body.data;
      expect(after.complainStatus).toBe(2);
      expect(after.dealNote).toBe('From a');
    } finally {
      await socket.close();
    }

    // A write that pushes nothing (a name changed on a): b's kept answer goes as the bus brings the drop.
    await staffB.post(`/complain/query/id/${id}`);
    await a.db.execute(sql`update person set name = ${'Named on a'} where id = ${resident.personId}`);
    await expect
      .poll(async () => (await staffB.post(`/complain/query/id/${id}`)).body.data.reportPersonName, { timeout: 10_000 })
      .toBe('Named on a');
  });

  it('when a complaint is filed on one api, then the other drops its kept page as the bus brings the drop', async () => {
    const [resident, staffB] = await Promise.all([signInResident(a, 'resident1'), signIn(b, 'admin')]);
    await staffB.post('/complain/query/list', FIRST);
    const before = await keptCounts(b, 'api_kept_lists_total');
    const kept = (await staffB.post('/complain/query/list', FIRST)).body.data as Page;
    expect((await keptCounts(b, 'api_kept_lists_total')).hit).toBe(before.hit + 1);

    const filed = await resident.post('/app/complain/save', { name: 'Two apis', note: 'x', ...resident.house });
    const id = filed.body.data.complainId as number;
    await expect
      .poll(async () => ((await staffB.post('/complain/query/list', FIRST)).body.data as Page).list[0].complainId, {
        timeout: 10_000,
      })
      .toBe(id);
    expect(((await staffB.post('/complain/query/list', FIRST)).body.data as Page).total).toBe(kept.total + 1);
  });
});
