// Issue 34, README "Part 18": a tab whose connection waited in the gateway's listen queue past its
// connect timeout has closed it; the gateway must not do the handshake's work for it (101, an
// engine.io session, the identity lookup its CONNECT asks for). Reproduced exactly: the gateway
// process is stopped (SIGSTOP), so the kernel alone accepts the connection and buffers the
// client's upgrade request, its socket.io CONNECT (sent along without waiting for the 101) and its
// FIN, as a busy gateway's listen queue holds them; the client closes; then the gateway runs again.
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  login,
  metric,
  openTab,
  settle,
  slowApi,
  spawnGateway,
  startRealApi,
  waitFor,
  type GatewayProcess,
  type SlowApi,
} from './kit';

let api: Awaited<ReturnType<typeof startRealApi>>;
let counted: SlowApi;
let gateway: GatewayProcess;
/** The gateway process's /metrics, on a port of its own. */
let metricsUrl: string;

beforeAll(async () => {
  api = await startRealApi();
  // The real api behind a proxy that counts the gateway's calls (nothing is held).
  counted = await slowApi(api.url);
  const metricsPort = await freePort();
  gateway = await spawnGateway({ API_URL: counted.url, METRICS_PORT: String(metricsPort), REDIS_URL: '' });
  metricsUrl = `http://127.0.0.1:${metricsPort}`;
}, 120_000);

afterAll(async () => {
  if (gateway) {
    gateway.child.kill('SIGCONT');
    await gateway.stop('SIGKILL');
  }
  await counted?.close();
  await api?.cleanup();
});

const identityCalls = () => counted.seen((p) => p.startsWith('/realtime/identit'));

/** A client's WebSocket frame (masked, as clients must) carrying `text`. */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const length =
    payload.length < 126
      ? Buffer.from([0x80 | payload.length])
      : Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]));
  return Buffer.concat([Buffer.from([0x81]), length, mask, masked]);
}

/** Connects, sends a socket.io upgrade with its CONNECT (auth `token`) right behind it, and closes. */
async function upgradeAndLeave(port: number, token: string): Promise<void> {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const request = [
    'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    '',
    '',
  ].join('\r\n');
  // "40" + auth: socket.io's CONNECT to the main namespace, which starts the identity lookup.
  socket.end(Buffer.concat([Buffer.from(request), maskedTextFrame(`40${JSON.stringify({ token })}`)]));
  await new Promise((resolve) => socket.once('finish', resolve));
  socket.destroy();
}

describe('an upgrade whose client already left (issue 34)', () => {
  it('when a client sends its upgrade and CONNECT and closes before the gateway reads them, then the gateway drops it with no handshake and no identity lookup, and a live tab still opens', async () => {
    const port = Number(new URL(gateway.url).port);
    const token = await login(api.url, 'admin', 'admin123');
    expect(await metric(metricsUrl, 'gateway_upgrades_dropped_total')).toBe(0);

    gateway.child.kill('SIGSTOP');
    try {
      await upgradeAndLeave(port, token);
      // Let the loopback deliver the data and the FIN to the stopped process's socket.
      await settle(200);
    } finally {
      gateway.child.kill('SIGCONT');
    }

    await waitFor(async () => (await metric(metricsUrl, 'gateway_upgrades_dropped_total')) === 1, 10_000);
    await settle(500);
    expect(identityCalls()).toBe(0);
    expect(await metric(metricsUrl, 'gateway_client_sockets')).toBe(0);

    // The check costs a live tab nothing but a turn of the event loop: it opens, through the api.
    const tab = await openTab(gateway.url, token);
    try {
      expect(tab.socket.connected).toBe(true);
      expect(identityCalls()).toBeGreaterThan(0);
      expect(await metric(metricsUrl, 'gateway_upgrades_dropped_total')).toBe(1);
    } finally {
      tab.close();
    }
  });
});
