// Issue 35: a gateway refused every tab's handshake (`errors.apiUnavailable`, 502) for minutes
// while its own api was away and the other one was up (README "Chaos run: why a gateway refused
// tabs"). The handshake asks an api who the token belongs to; that lookup went to the next api only
// when the first refused the connection. An api that accepts and closes unanswered (a TCP proxy
// or load balancer in front of a dead process, as the chaos harness's link was) or answers 503 (its
// database away, still starting) ended the lookup there, and so did the gateway's own api whenever
// the health checks had marked both down (a slow health answer under load). The lookup is a read:
// it now goes on to the next api whenever one did not answer it.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle } from '../src/server';
import { openTab, signIn, startRealApi, startTestGateway, type Person } from './kit';

/** Health checks that never come during a test: only the handshake's own calls decide. */
const NO_CHECKS_MS = 3_600_000;

let api: Awaited<ReturnType<typeof startRealApi>>;
let admin: Person;
const closers: (() => Promise<unknown>)[] = [];

async function listening<T extends Server | HttpServer>(server: T): Promise<{ server: T; url: string }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((r) => server.close(r)));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/** What a TCP proxy in front of a killed api does: it accepts each connection and closes it. */
const acceptsAndCloses = () => listening(createServer((socket) => socket.destroy()));

/** An api whose database is away: every call answered 503. */
const answers503 = () =>
  listening(
    createHttpServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 503, message: 'database unavailable', data: null }));
    }),
  );

async function gatewayBefore(ownApiUrl: string): Promise<GatewayHandle> {
  const gateway = await startTestGateway({ url: ownApiUrl }, { fallbackApiUrls: [api.url], apiProbeMs: NO_CHECKS_MS });
  closers.push(() => gateway.close());
  return gateway;
}

beforeAll(async () => {
  api = await startRealApi();
  admin = await signIn(api.url, 'admin');
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await api.cleanup();
});

describe("a tab handshake while the gateway's own api does not answer (issue 35)", () => {
  it('when its own api accepts connections and closes them unanswered, then the tab is accepted at once through the other api', async () => {
    const dead = await acceptsAndCloses();
    const gateway = await gatewayBefore(dead.url);
    const tab = await openTab(gateway.url, admin.token);
    expect(tab.socket.connected).toBe(true);
    tab.close();
  });

  it('when its own api answers 503, then the tab is accepted at once through the other api', async () => {
    const starting = await answers503();
    const gateway = await gatewayBefore(starting.url);
    const tab = await openTab(gateway.url, admin.token);
    expect(tab.socket.connected).toBe(true);
    tab.close();
  });
});
