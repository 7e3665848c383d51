// Issue 35: a gateway uses the other api process while its own is killed (-9) or frozen (SIGSTOP),
// as docker-compose.yml's two api processes and two gateways do (API_URLS). Two real api
// processes on one PostgreSQL database, a real gateway in front of both, a real staff tab, real
// resident calls through the gateway: calls keep succeeding and the tab keeps its live topics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, type StatusTotals } from '@pm/shared';
import type { GatewayHandle } from '../src/server';
import {
  call,
  fileComplaint,
  metric,
  openTab,
  residentOf,
  signIn,
  startTestGateway,
  startTwoApiProcesses,
  waitFor,
  waitForTopic,
  type ApiProcess,
  type Resident,
  type Tab,
  type TwoApiProcesses,
} from './kit';

let pair: TwoApiProcesses | null = null;
let apis: ApiProcess[] = [];
let gateway: GatewayHandle | null = null;
let tab: Tab | null = null;

beforeAll(async () => {
  pair = await startTwoApiProcesses('failover');
  apis = pair.apis;
  const [first, second] = pair.apis;
  // The gateway's own api is the first; the second is where it goes while the first is down.
  gateway = await startTestGateway(first, { fallbackApiUrls: [second.url] });
}, 240_000);

afterAll(async () => {
  tab?.close();
  await gateway?.close();
  await pair?.stop();
});

/** Whether the gateway has `api` marked up (1) or down (0), from its metrics. */
const apiUp = (api: ApiProcess) => metric(gateway!.url, 'gateway_api_up', { api: api.url });

describe('a gateway in front of two api processes (issue 35)', () => {
  it('when its api is killed -9 or frozen, and then the other one, then calls through the gateway keep succeeding and the tab gets every new complaint live', async () => {
    const [api1, api2] = apis;
    const through = `${gateway!.url}/api`;
    const admin = await signIn(through, 'admin');
    tab = await openTab(gateway!.url, admin.token);
    const drops: string[] = [];
    tab.socket.on('disconnect', (reason) => drops.push(reason));
    await waitFor(() => tab!.snapshots[0]);
    expect((await tab.subscribe([...TOPICS])).topics).toEqual([...TOPICS]);
    const resident: Resident = await residentOf(through, 'resident1');

    /** Complaints filed through the gateway, each awaited on the tab as a live event. */
    const fileAndSee = async (label: string) => {
      for (let i = 0; i < 3; i++) {
        const id = await fileComplaint(through, resident, `${label} ${i}`);
        await waitForTopic(tab!, 'workorders', (e) => e.dataId === id && e.action === 'new');
      }
    };
    await fileAndSee('Before any fault');

    // Its own api killed -9: the very next calls are sent to the other one (the first refuses the
    // connection, so nothing reached it), and the upstream moves there.
    await api1.kill();
    await fileAndSee('Own api killed');
    expect(await apiUp(api1)).toBe(0);

    // Back: calls return to it once it answers its health check; the upstream stays where it is.
    await api1.start();
    await waitFor(async () => (await apiUp(api1)) === 1);

    // The other api (holding the upstream now) frozen: it accepts connections and answers
    // nothing; once the gateway has marked it down, the upstream is on the first again.
    api2.freeze();
    await waitFor(async () => (await apiUp(api2)) === 0);
    await fileAndSee('Other api frozen');
    api2.thaw();
    await waitFor(async () => (await apiUp(api2)) === 1);

    // Its own api frozen (calls and the upstream on it): both go to the other.
    api1.freeze();
    await waitFor(async () => (await apiUp(api1)) === 0);
    await fileAndSee('Own api frozen');
    api1.thaw();

    // The tab never dropped, and its counters are the database's.
    expect(drops).toEqual([]);
    const totals = () =>
      call<StatusTotals>(api2.url, admin.token, 'POST', '/complain/query/getComplainStatusTotalVo', {});
    await waitFor(async () => JSON.stringify(tab!.counters().complaints) === JSON.stringify(await totals()));
    expect(tab.counters().complaints.untreated).toBeGreaterThanOrEqual(12);
  }, 120_000);
});
