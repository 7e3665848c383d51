// The live counters kept per person (issue 34, counters-cache.ts): while this api process holds
// the person's upstream, `GET /realtime/counters` costs no query; a push for the person drops the
// kept answer before the push is written to the upstream, so once the event has reached the
// socket the very next call counts it — asked at once, never polled. Across api processes:
// two-processes.postgres.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  fileComplaint as fileResidentComplaint,
  openRealtime,
  signInAll,
  startTestApi,
  testEngines,
  type Session,
  type TestApi,
  type TestSocket,
} from './kit';

interface Counters {
  pushSeq: number;
  complaints: { untreated: number };
  unreadByType: Record<string, number>;
}

describe.each(testEngines())('the kept live counters on %s', (engine) => {
  let api: TestApi;
  let people: Record<string, Session>;
  const sockets: TestSocket[] = [];

  /** Queries the api has sent to its database so far. */
  const queries = async () =>
    (await api.metrics.queryDuration.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
  const counters = async (who: string): Promise<Counters> => {
    const res = await people[who].get('/realtime/counters');
    expect(res.status).toBe(200);
    return res.body.data as Counters;
  };
  const open = async (who: string) => {
    const s = await openRealtime(api, people[who]);
    sockets.push(s);
    return s;
  };
  const fileComplaint = (name: string) => fileResidentComplaint(people.resident, name);

  beforeAll(async () => {
    api = await startTestApi(engine);
    people = await signInAll(api, { admin: 'admin', staff: 'staff', resident: 'resident1' });
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
  });
  afterAll(async () => api?.close());

  it('when the person holds an upstream here, then a second counters call sends no query to the database', async () => {
    await open('admin');
    const first = await counters('admin');
    const before = await queries();
    expect(await counters('admin')).toEqual(first);
    expect(await queries()).toBe(before);
  });

  it('when a push for the person has reached their upstream, then the very next counters call counts it', async () => {
    const live = await open('admin');
    const before = await counters('admin');
    await counters('admin'); // kept
    for (let i = 1; i <= 3; i++) {
      const id = await fileComplaint(`Kept counters ${i}`);
      const pushed = await live.waitFor((m) => m.channelType === 8 && m.dataId === id);
      const after = await counters('admin');
      expect(after.pushSeq).toBe(pushed.pushSeq);
      expect(after.pushSeq).toBe(before.pushSeq + i);
      expect(after.complaints.untreated).toBe(before.complaints.untreated + i);
      expect(after.unreadByType['50']).toBe(before.unreadByType['50'] + i);
    }
  });

  it('when a message is read in another tab (a push that only moves counters), then the next call counts one fewer unread', async () => {
    const live = await open('admin');
    await fileComplaint('Read me');
    const listed = await people.admin.post('/base/message/list', {
      page: 1,
      limit: 1,
      messageTypeList: [50],
      unReadStatus: 0,
    });
    const messageId = listed.body.data.list[0].messageId as number;
    const before = await counters('admin');
    expect((await people.admin.post('/base/message/hasRead', { messageId })).status).toBe(200);
    await live.waitFor((m) => m.channelType === 3900 && (m.pushSeq as number) > before.pushSeq);
    const after = await counters('admin');
    expect(after.unreadByType['50']).toBe(before.unreadByType['50'] - 1);
  });

  it('when the person holds no upstream here, then every counters call asks the database, as before', async () => {
    const before = await queries();
    await counters('staff');
    const between = await queries();
    expect(between).toBeGreaterThan(before);
    await counters('staff');
    expect(await queries()).toBeGreaterThan(between);
    expect(api.realtime.counters.size()).toBe(0);
  });

  it('when the upstream closes, then the kept answer is dropped and the next call asks the database', async () => {
    const live = await open('staff');
    await counters('staff');
    expect(api.realtime.counters.size()).toBe(1);
    await live.close();
    sockets.splice(sockets.indexOf(live), 1);
    for (let i = 0; i < 200 && api.realtime.connectionCount(people.staff.personId) > 0; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(api.realtime.counters.size()).toBe(0);
    const before = await queries();
    await counters('staff');
    expect(await queries()).toBeGreaterThan(before);
  });
});
