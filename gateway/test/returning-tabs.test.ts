// Issue 34, README "Part 21": a returning tab for less of the gateway's CPU. The identity lookups
// of the handshakes read in one turn of the event loop go in ONE api call even when the api gate has
// free slots (before, each took a free slot at once and went alone), and the tabs of persons coming
// back together to a new gateway make one lookup per token, one upstream per person, each tab the
// right counters, and a token revoked meanwhile is still refused.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBenchStaff } from '../../api/bench/bench-staff';
import type { Db } from '../../api/src/db/open-database';
import { ApiClient, type Identity } from '../src/api-client';
import {
  complaintCounters,
  dropConnection,
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
  staff = await createBenchStaff((api as unknown as { db: Db }).db, 8, { prefix: 'returning' });
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => undefined);
  await api.cleanup();
});

const identityCalls = (p: string) => p.startsWith('/realtime/identit');
const batchCalls = (p: string) => p.startsWith('/realtime/identities');

describe('a returning tab for less of the gateway (issue 34, part 21)', () => {
  it('when lookups are asked in one turn with api slots free, then they go in one batch call, each answered as its own token (a revoked and a made-up one null)', async () => {
    const s = await slowApi(api.url);
    closers.push(() => s.close());
    const client = new ApiClient(s.url);
    closers.push(() => client.close());
    const revoked = staff[5].token;
    expect(
      (await fetch(`${api.url}/auth/signOut`, { method: 'POST', headers: { authorization: `Bearer ${revoked}` } }))
        .status,
    ).toBe(200);

    const tokens = [...staff.slice(0, 5).map((p) => p.token), revoked, 'made-up-token'];
    // Each asked from a callback of its own in one turn of the event loop, as the handshakes of the
    // connections read in one turn are (promise jobs run between those callbacks).
    const answers = await Promise.all(
      tokens.map((t) => new Promise<Identity | null>((resolve) => setImmediate(() => resolve(client.identify(t))))),
    );

    expect(answers.slice(0, 5).map((a) => a?.personId)).toEqual(staff.slice(0, 5).map((p) => p.personId));
    expect(answers[5]).toBeNull();
    expect(answers[6]).toBeNull();
    // One call for the seven: before, each lookup took a free slot of the gate at once and went alone.
    expect(s.seen(identityCalls)).toBe(1);
    expect(s.seen(batchCalls)).toBe(1);

    // A lone lookup later is still one call of its own, and the client's connections close.
    expect((await client.identify(staff[0].token))?.personId).toBe(staff[0].personId);
    expect(s.seen(identityCalls)).toBe(2);
  }, 60_000);

  it('when five tabs of each of four persons come back together to another gateway, then one lookup per token, one upstream per person, every tab the right counters, and a token revoked meanwhile refused', async () => {
    const first = await startTestGateway(api);
    closers.push(() => first.close());
    const s = await slowApi(api.url);
    closers.push(() => s.close());
    const second = await startTestGateway({ url: s.url });
    closers.push(() => second.close());

    const persons = staff.slice(0, 4);
    const revokedPerson = staff[6];
    const tabsOf = new Map<number, Tab[]>();
    for (const p of [...persons, revokedPerson]) {
      const tabs = await Promise.all(
        Array.from({ length: 5 }, () => openTab(first.url, p.token, { reconnection: true })),
      );
      for (const tab of tabs) closers.push(() => tab.close());
      tabsOf.set(p.personId, tabs);
    }
    // Signed out at the api itself (not through a gateway): only the next handshake finds out.
    expect(
      (
        await fetch(`${api.url}/auth/signOut`, {
          method: 'POST',
          headers: { authorization: `Bearer ${revokedPerson.token}` },
        })
      ).status,
    ).toBe(200);
    const refusals: number[] = [];
    for (const tab of tabsOf.get(revokedPerson.personId)!)
      tab.socket.on('connect_error', (err: Error & { data?: { code?: number } }) => refusals.push(err.data?.code ?? 0));

    const before = new Map([...tabsOf].map(([id, tabs]) => [id, tabs.map((t) => t.snapshots.length)]));
    // The gateway's lookups at the api, by token, from now on (a lookup alone or in a batch: each is one `identify`).
    const identify = vi.spyOn(ApiClient.prototype, 'identify');
    closers.push(() => identify.mockRestore());
    const lookupsOf = (token: string) => identify.mock.calls.filter(([t]) => t === token).length;
    // Every tab loses its connection at once and comes back to the second gateway.
    for (const tabs of tabsOf.values()) for (const tab of tabs) dropConnection(tab, second.url);
    await first.close();

    for (const p of persons)
      for (const [i, tab] of tabsOf.get(p.personId)!.entries())
        await waitFor(() => tab.socket.connected && tab.snapshots.length > before.get(p.personId)![i], 60_000);
    await waitFor(() => refusals.length >= 5, 60_000);
    expect(new Set(refusals)).toEqual(new Set([401]));
    expect(tabsOf.get(revokedPerson.personId)!.some((t) => t.socket.connected)).toBe(false);

    // One lookup per person (their five tabs share it), whether it went alone or in a batch; a
    // refused token is not remembered, so each of its tabs may ask again.
    for (const p of persons) expect(lookupsOf(p.token)).toBe(1);
    expect(lookupsOf(revokedPerson.token)).toBeGreaterThanOrEqual(1);
    expect(s.seen(identityCalls)).toBeLessThanOrEqual(4 + lookupsOf(revokedPerson.token));
    // One upstream per person at the api, and each from its first message's counters.
    for (const p of persons) await waitFor(() => api.realtime.connectionCount(p.personId) === 1, 30_000);
    expect(api.realtime.connectionCount(revokedPerson.personId)).toBe(0);
    expect(await metric(second.url, 'gateway_upstream_first_counters_total')).toBe(4);
    expect(s.seen((p) => p.startsWith('/realtime/counters'))).toBe(0);
    for (const p of persons) {
      const expected = JSON.stringify(await complaintCounters(api.url, p.token));
      for (const tab of tabsOf.get(p.personId)!)
        await waitFor(() => JSON.stringify(shownComplaintCounters(tab)) === expected, 30_000);
    }
  }, 180_000);
});
