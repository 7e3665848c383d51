import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { translate } from '../src/locale-messages';
import { startGateway, type GatewayHandle, type GatewayOptions } from '../src/server';
import { metric, settle, waitFor } from './kit';

let gateway: GatewayHandle | null = null;
let upstream: HeldUpstream | null = null;

afterEach(async () => {
  upstream?.answerAll();
  await gateway?.close();
  gateway = null;
  await upstream?.close();
  upstream = null;
});

/** A real HTTP server standing in for the api: it holds every call until told to answer. */
interface HeldUpstream {
  url: string;
  /** Calls received so far, in order: the path and the headers the gateway sent. */
  received: { path: string; headers: IncomingHttpHeaders }[];
  /** Answers the held calls, and from now on every call at once. */
  answerAll(): void;
  close(): Promise<void>;
}

async function heldUpstream(): Promise<HeldUpstream> {
  const held: { res: ServerResponse; path: string }[] = [];
  const received: HeldUpstream['received'] = [];
  let holding = true;
  const answer = ({ res, path }: { res: ServerResponse; path: string }) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ code: 200, msg: 'ok', data: path }));
  const server: Server = createServer((req, res) => {
    received.push({ path: req.url ?? '', headers: req.headers });
    if (holding) held.push({ res, path: req.url ?? '' });
    else answer({ res, path: req.url ?? '' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answerAll: () => {
      holding = false;
      held.splice(0).forEach(answer);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

async function start(options: Partial<GatewayOptions>): Promise<GatewayHandle> {
  upstream = await heldUpstream();
  gateway = await startGateway({ apiUrl: upstream.url, logLevel: 'silent', ...options });
  return gateway;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { code: number; msg: string; data: unknown };
}

/** One call on its own connection; `from` picks the loopback address it comes from (another client). */
function call(path: string, options: { from?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${gateway!.url}${path}`,
      { headers: options.headers, localAddress: options.from ?? '127.0.0.1', agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the /api proxy limits', () => {
  it('when a client has more calls than it may run and queue, then the extra call gets a translated 503 envelope at once', async () => {
    await start({ proxyLimits: { inFlightPerClient: 2, queuePerClient: 1 } });
    const kept = [1, 2, 3].map((i) => call(`/api/work/${i}`));
    await waitFor(() => upstream!.received.length === 2);

    const refused = await call('/api/work/4', { headers: { lang: 'zh-TW' } });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ code: 503, msg: translate('zh-TW', 'errors.gatewayBusy'), data: null });
    expect(refused.body.msg).toBe('服務忙碌中，請稍後再試');
    expect(refused.headers['retry-after']).toBe('1');
    expect(await metric(gateway!.url, 'gateway_proxy_refused_total')).toBe(1);
    expect(await metric(gateway!.url, 'gateway_proxy_in_flight', { state: 'waiting' })).toBe(1);

    // The waiting call runs when a slot frees: every kept call is answered by the api.
    upstream!.answerAll();
    const answers = await Promise.all(kept);
    expect(answers.map((a) => a.body.data)).toEqual(['/work/1', '/work/2', '/work/3']);
  });

  it("when one client's calls wait for slots, then another client's call runs before them", async () => {
    await start({ proxyLimits: { inFlight: 3, inFlightPerClient: 2, queuePerClient: 10 } });
    const flood = [1, 2, 3, 4, 5].map((i) => call(`/api/flood/${i}`));
    await waitFor(() => upstream!.received.length === 2);
    await settle(100);

    const other = call('/api/other', { from: '127.0.0.2' });
    await waitFor(() => upstream!.received.some((r) => r.path === '/other'));
    expect(upstream!.received.map((r) => r.path)).toEqual(['/flood/1', '/flood/2', '/other']);
    upstream!.answerAll();
    expect((await other).status).toBe(200);
    expect((await Promise.all(flood)).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('when a call waits longer than the queue allows, then it gets a 503 envelope', async () => {
    await start({ proxyLimits: { inFlightPerClient: 1, queueTimeoutMs: 200 } });
    const running = call('/api/slow');
    await waitFor(() => upstream!.received.length === 1);
    const waited = await call('/api/later');
    expect(waited.status).toBe(503);
    expect(waited.body.msg).toBe(translate('en', 'errors.gatewayBusy'));
    upstream!.answerAll();
    expect((await running).status).toBe(200);
    expect(upstream!.received.map((r) => r.path)).toEqual(['/slow']);
  });
});

describe('forwarded headers', () => {
  it("when a client sends its own X-Forwarded-For, then the api sees the client's real address instead", async () => {
    await start({});
    const answer = call('/api/whoami', {
      from: '127.0.0.3',
      headers: {
        'x-forwarded-for': '203.0.113.9, 10.0.0.1',
        forwarded: 'for=203.0.113.9',
        'x-real-ip': '203.0.113.9',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'evil.example',
      },
    });
    await waitFor(() => upstream!.received.length === 1);
    const { headers } = upstream!.received[0];
    expect(headers['x-forwarded-for']).toBe('127.0.0.3');
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-host']).toBe(new URL(gateway!.url).host);
    expect(headers.forwarded).toBeUndefined();
    expect(headers['x-real-ip']).toBeUndefined();
    expect(headers['x-request-id']).toBeTruthy();
    upstream!.answerAll();
    expect((await answer).status).toBe(200);
  });
});
