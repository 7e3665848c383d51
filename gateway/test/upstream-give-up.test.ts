// The person's upstream to the api gives up (SPEC §9: after 50 reconnects, 5 s apart, on close
// code 1006). Before, the tabs stayed connected to the gateway and went on showing their counters
// as if live, though nothing reached them any more. Now the gateway disconnects them: the console
// shows "reconnecting", then "offline since …", and connects again after its pause
// (client/src/modules/live/utils/liveSocket.ts), and that handshake opens a new upstream.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { TOPICS } from '@pm/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle } from '../src/server';
import {
  complaintCounters,
  fileComplaint,
  metric,
  openTab,
  reportsOf,
  residentOf,
  shownComplaintCounters,
  signIn,
  startRealApi,
  startTestGateway,
  waitFor,
  type Person,
  type Resident,
} from './kit';

/** A link between the gateway and the api that can be cut (the api unreachable) and restored. */
class Link {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: number) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    const server = createServer((inbound) => {
      const outbound = createConnection(this.target, inbound);
      this.sockets.add(inbound).add(outbound);
      for (const s of [inbound, outbound]) s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Stops listening and cuts every connection: the gateway's calls and upstream are refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise((r) => server.close(r));
  }
}

function createConnection(port: number, inbound: Socket): Socket {
  const outbound = connect(port, '127.0.0.1');
  inbound.pipe(outbound).pipe(inbound);
  const end = () => {
    inbound.destroy();
    outbound.destroy();
  };
  inbound.on('error', end).on('close', end);
  outbound.on('error', end).on('close', end);
  return outbound;
}

let api: Awaited<ReturnType<typeof startRealApi>>;
let admin: Person;
let resident: Resident;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  api = await startRealApi();
  admin = await signIn(api.url, 'admin');
  resident = await residentOf(api.url, 'resident1');
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await api.cleanup();
});

describe('an upstream that gives up (SPEC §9)', () => {
  it("disconnects the person's tabs instead of leaving them frozen, and a reconnect opens a new upstream that misses nothing", async () => {
    const link = new Link(Number(new URL(api.url).port));
    await link.listen();
    closers.push(() => link.cut());
    const gateway: GatewayHandle = await startTestGateway(
      { url: link.url },
      { reconnectDelayMs: 100, upstreamMaxAttempts: 3, apiProbeMs: 3_600_000 },
    );
    closers.push(() => gateway.close());

    const tabs = [await openTab(gateway.url, admin.token), await openTab(gateway.url, admin.token)];
    await Promise.all(tabs.map((t) => t.subscribe([...TOPICS])));
    await Promise.all(tabs.map((t) => t.nextSnapshot(0)));
    const reasons = tabs.map(() => [] as string[]);
    tabs.forEach((t, i) => t.socket.on('disconnect', (reason) => reasons[i].push(reason)));
    closers.push(async () => tabs.forEach((t) => t.close()));

    // The api becomes unreachable: the upstream closes with 1006, reconnects 3 times, gives up.
    await link.cut();
    await waitFor(() => reasons.every((r) => r.includes('io server disconnect')), 30_000);
    expect(await metric(gateway.url, 'gateway_upstream_give_ups_total')).toBe(1);

    // A complaint filed while the tabs are away (straight at the api, as the residents' app does).
    const missed = await fileComplaint(api.url, resident, 'Filed while the gateway had given up');

    // The api is reachable again; the tabs connect again as the console does after its pause.
    await link.listen();
    for (const t of tabs) t.socket.connect();
    await waitFor(() => tabs.every((t) => t.socket.connected), 30_000);
    // As the console at every connect: its topics again (a new socket.io session has none).
    await Promise.all(tabs.map((t) => t.subscribe([...TOPICS])));
    const live = await fileComplaint(api.url, resident, 'Filed after the tabs came back');
    for (const t of tabs) await waitFor(() => reportsOf(t).includes(`workorders:${live}`), 30_000);
    // The counters each tab shows are the api's, the complaint filed while they were away included.
    const expected = await complaintCounters(api.url, admin.token);
    expect(expected.unread50).toBeGreaterThanOrEqual(2);
    for (const t of tabs)
      await waitFor(() => JSON.stringify(shownComplaintCounters(t)) === JSON.stringify(expected), 30_000);
    expect(missed).toBeLessThan(live);
    expect(await metric(gateway.url, 'gateway_upstream_give_ups_total')).toBe(1);
  }, 120_000);
});
