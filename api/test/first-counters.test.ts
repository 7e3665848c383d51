// Issue 34: a resuming upstream that asks with `counters=1` gets the person's counters in its
// first message (as of their own push number), so the gateway makes one api call per person
// instead of three when thousands of tabs come back. Snapshot + stream: the counters count every
// push up to their number; the stream still starts where the first message says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fileComplaint as fileResidentComplaint,
  openSocket,
  refusedStatus,
  signInAll,
  startTestApi,
  testEngines,
  type Session,
  type TestApi,
  type TestSocket,
} from './kit';

type Counters = { pushSeq: number; complaints: { untreated: number }; unreadByType: Record<string, number> };

describe.each(testEngines())('counters in the upstream first message on %s', (engine) => {
  let api: TestApi;
  let people: Record<string, Session>;
  const sockets: TestSocket[] = [];
  const counters = async (who: string) => (await people[who].get('/realtime/counters')).body.data as Counters;
  const open = async (who: string, query: string) => {
    const s = await openSocket(api.url, people[who].token, `${people[who].personId}${query}`);
    sockets.push(s);
    return s;
  };
  const first = async (s: TestSocket) => {
    await s.waitFor((m) => m.channelType === 'heartbeat');
    return s.messages[0] as { channelType: string; pushSeq: number; counters?: Counters };
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    people = await signInAll(api, { admin: 'admin', staff: 'staff', resident: 'resident1' });
  });
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await api?.close();
  });

  it('when an upstream asks for the latest number with counters=1, then its first message carries what GET /realtime/counters answers', async () => {
    const live = await open('admin', '?after=latest&counters=1');
    const message = await first(live);
    expect(message.counters).toEqual(await counters('admin'));
    expect(message.counters!.pushSeq).toBe(message.pushSeq);
  });

  it('when an upstream resumes from an older number with counters=1, then the counters count the pushes the stream sends again', async () => {
    const start = (await counters('admin')).pushSeq;
    const untreated = (await counters('admin')).complaints.untreated;
    const id = await fileResidentComplaint(people.resident, 'Counted in the first message');
    const live = await open('admin', `?after=${start}&counters=1`);
    const message = await first(live);
    // The stream starts after the number asked for; the counters are as of the push it sends next.
    expect(message.pushSeq).toBe(start);
    expect(message.counters!.pushSeq).toBe(start + 1);
    expect(message.counters!.complaints.untreated).toBe(untreated + 1);
    const again = await live.waitFor((m) => m.channelType === 8 && m.dataId === id);
    expect(again.pushSeq).toBe(start + 1);
    // And live pushes after it follow, numbered on.
    const next = await fileResidentComplaint(people.resident, 'After the first message');
    const pushed = await live.waitFor((m) => m.channelType === 8 && m.dataId === next);
    expect(pushed.pushSeq).toBe(start + 2);
  });

  it('when an upstream does not ask for the counters, then its first message is as before', async () => {
    const live = await open('staff', '?after=latest');
    const message = await first(live);
    expect(message).not.toHaveProperty('counters');
    expect(typeof message.pushSeq).toBe('number');
  });

  it('when counters=1 comes without a resume number or with another value, then the upgrade is refused 400', async () => {
    expect(await refusedStatus(api.url, people.staff.token, `${people.staff.personId}?counters=1`)).toBe(400);
    expect(await refusedStatus(api.url, people.staff.token, `${people.staff.personId}?after=latest&counters=yes`)).toBe(
      400,
    );
  });

  it('when the token is not valid, then counters=1 changes nothing: 401', async () => {
    expect(await refusedStatus(api.url, 'not-a-token', `${people.staff.personId}?after=latest&counters=1`)).toBe(401);
  });
});
