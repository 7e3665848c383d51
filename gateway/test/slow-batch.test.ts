// Issue 34, README "Part 13": a batch of identity lookups that the api does not answer in time
// (a slow api in a reconnect storm) used to refuse every handshake in it with 502 at once. Now its
// lookups are sent again in smaller batches while their handshakes' time allows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBenchStaff } from '../../api/bench/bench-staff';
import type { Db } from '../../api/src/db/open-database';
import { metric, openTab, slowApi, startRealApi, startTestGateway, waitFor, type Tab } from './kit';

let api: Awaited<ReturnType<typeof startRealApi>>;
let staff: Awaited<ReturnType<typeof createBenchStaff>>;
const closers: (() => Promise<unknown> | void)[] = [];

beforeAll(async () => {
  api = await startRealApi();
  staff = await createBenchStaff((api as unknown as { db: Db }).db, 8, { prefix: 'slowbatch' });
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

const single = (p: string) => p === '/realtime/identity' || p.startsWith('/realtime/identity?');
const batch = (p: string) => p.startsWith('/realtime/identities');

describe('a batch of identity lookups the api answers too late (issue 34)', () => {
  it('when a batch call times out, then its lookups are sent again in smaller batches and every handshake in it succeeds (a revoked token still 401)', async () => {
    const s = await slowApi(api.url);
    closers.push(() => s.close());
    const gateway = await startTestGateway(
      { url: s.url },
      { apiTimeoutMs: 8_000, apiGate: { inFlight: 1, queued: 100, maxWaitMs: 120_000 } },
    );
    closers.push(() => gateway.close());
    const revoked = staff[6].token;
    expect(
      (await fetch(`${api.url}/auth/signOut`, { method: 'POST', headers: { authorization: `Bearer ${revoked}` } }))
        .status,
    ).toBe(200);

    // The first lookup holds the only slot (released within its 8 s); six more wait for a turn and then go as one batch.
    s.hold((p) => single(p) || batch(p));
    const first = outcome(openTab(gateway.url, staff[0].token));
    await waitFor(() => s.held() === 1, 60_000);
    const waiting = [1, 2, 3, 4, 5].map((i) => outcome(openTab(gateway.url, staff[i].token)));
    const refused = outcome(openTab(gateway.url, revoked));
    await waitFor(async () => (await metric(gateway.url, 'gateway_api_calls', { state: 'identity' })) === 6, 60_000);
    s.release(single);

    // The batch of six reaches the api, whose answer does not come back within the call's time;
    // the gateway sends those tokens again (a smaller batch) instead of refusing six handshakes.
    await waitFor(() => s.seen(batch) === 1, 60_000);
    await waitFor(() => s.seen(batch) >= 2, 30_000);
    s.release();

    const tabs = await Promise.all([first, ...waiting]);
    expect(tabs.map((t) => ('socket' in t ? 'tab' : t))).toEqual(Array(6).fill('tab'));
    expect(await refused).toMatchObject({ code: 401 });
  }, 180_000);
});
