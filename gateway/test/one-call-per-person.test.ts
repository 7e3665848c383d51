// Issue 34, "one api call per person in a storm": identity lookups that wait for a turn at the
// api go in one POST /realtime/identities, and a new upstream's first message carries the
// person's counters (counters=1), so no GET /realtime/counters follows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBenchStaff } from '../../api/bench/bench-staff';
import type { Db } from '../../api/src/db/open-database';
import {
  complaintCounters,
  metric,
  openTab,
  shownComplaintCounters,
  slowApi,
  startRealApi,
  startTestGateway,
  waitFor,
  type Tab,
} from './kit';

let api: Awaited<ReturnType<typeof startRealApi>>;
let staff: Awaited<ReturnType<typeof createBenchStaff>>;
const closers: (() => Promise<unknown> | void)[] = [];

beforeAll(async () => {
  api = await startRealApi();
  staff = await createBenchStaff((api as unknown as { db: Db }).db, 8, { prefix: 'onecall' });
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => undefined);
  await api.cleanup();
});

type Outcome = { code?: number } | Tab;
function outcome(pending: Promise<Tab>): Promise<Outcome> {
  return pending.then(
    (tab) => {
      closers.push(() => tab.close());
      return tab;
    },
    (err: Error & { data?: { code?: number } }) => err.data ?? {},
  );
}
const isTab = (o: Outcome): o is Tab => 'socket' in o;

describe('one api call per person when tabs come back (issue 34)', () => {
  it('when lookups wait for their turn, then they go in one batch call (a revoked token among them refused 401), and no counters call follows the upstreams', async () => {
    const s = await slowApi(api.url);
    closers.push(() => s.close());
    const gateway = await startTestGateway(
      { url: s.url },
      { apiGate: { inFlight: 1, queued: 100, maxWaitMs: 120_000 } },
    );
    closers.push(() => gateway.close());
    const revoked = staff[6].token;
    expect(
      (await fetch(`${api.url}/auth/signOut`, { method: 'POST', headers: { authorization: `Bearer ${revoked}` } }))
        .status,
    ).toBe(200);

    // The first lookup holds the only slot (its answer held on its way); the next six wait for a turn.
    s.hold((p) => p.startsWith('/realtime/identit'));
    const first = outcome(openTab(gateway.url, staff[0].token));
    await waitFor(() => s.held() === 1, 60_000);
    const waiting = [1, 2, 3, 4, 5].map((i) => outcome(openTab(gateway.url, staff[i].token)));
    const refused = outcome(openTab(gateway.url, revoked));
    await waitFor(async () => (await metric(gateway.url, 'gateway_api_calls', { state: 'identity' })) === 6, 60_000);
    s.release();

    const tabs = await Promise.all([first, ...waiting]);
    expect(tabs.every(isTab)).toBe(true);
    expect(await refused).toMatchObject({ code: 401 });
    expect(s.seen((p) => p.startsWith('/realtime/identities'))).toBe(1);
    expect(s.seen((p) => p === '/realtime/identity' || p.startsWith('/realtime/identity?'))).toBe(1);

    // Every tab shows the counters the api counts, taken from its upstream's first message.
    for (const [i, tab] of (tabs as Tab[]).entries()) {
      const expected = JSON.stringify(await complaintCounters(api.url, staff[i].token));
      await waitFor(() => JSON.stringify(shownComplaintCounters(tab)) === expected, 60_000);
    }
    expect(await metric(gateway.url, 'gateway_upstream_first_counters_total')).toBe(6);
    expect(s.seen((p) => p.startsWith('/realtime/counters'))).toBe(0);
  }, 180_000);
});
