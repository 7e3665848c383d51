// README "Part 35": the gateway asks the api's gate for as many turns as its waiting identity
// lookups need (a turn sends up to IDENTITY_BATCH_MAX of them), not one turn per lookup. With a turn
// per lookup, a storm's thousands of handshakes queued thousands of turns that a few batch calls
// would serve, the gate took them for the api's backlog, and it refused handshakes (503) with a
// Retry-After of that estimate: 18 s or more on the default limits.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { IDENTITY_BATCH_MAX } from '@pm/shared';
import { ApiClient } from '../src/api-client';
import { ApiGate } from '../src/api-gate';

const identity = (token: string) => ({
  personId: Number(token.slice(1)),
  accId: Number(token.slice(1)),
  roleValue: 'ADMIN',
  perms: [],
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
});

/** An api answering identity lookups, each call held until `release()`; it counts single and batch calls. */
async function heldApi() {
  const held: (() => void)[] = [];
  let releasing = false;
  const calls = { single: 0, batch: [] as number[] };
  const answer = (res: ServerResponse, data: unknown) => {
    const body = JSON.stringify({ code: 200, msg: 'ok', data });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = () => {
        if (req.url?.startsWith('/realtime/identities')) {
          const { tokens } = JSON.parse(Buffer.concat(chunks).toString()) as { tokens: string[] };
          calls.batch.push(tokens.length);
          answer(res, { identities: tokens.map(identity) });
        } else {
          calls.single++;
          answer(res, identity(String(req.headers.authorization).replace('Bearer ', '')));
        }
      };
      if (releasing) reply();
      else held.push(reply);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    held: () => held.length,
    release() {
      releasing = true;
      for (const reply of held.splice(0)) reply();
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('identity lookups waiting for the api (README "Part 35")', () => {
  it('when 300 lookups wait behind a call in flight, then the gate holds a turn per batch of them, none is refused, and they go in full batches', async () => {
    const api = await heldApi();
    closers.push(api.close);
    // One call at a time, and a wait bound that 300 turns of the gate's starting estimate (20 ms
    // each) exceed: with a turn per lookup, the lookups past the 250th were refused 503.
    const gate = new ApiGate({ inFlight: 1, queued: 4_000, maxWaitMs: 5_000 });
    const client = new ApiClient(api.url, 10_000, gate);
    closers.push(() => client.close());

    const first = client.identify('t0');
    await until(() => api.held() === 1);
    const waiting = Array.from({ length: 300 }, (_, i) => client.identify(`t${i + 1}`));
    await new Promise((r) => setImmediate(r));

    expect(client.lookupsWaiting).toBe(300);
    expect(gate.load.identity).toBe(Math.ceil(300 / IDENTITY_BATCH_MAX));

    api.release();
    const people = await Promise.all([first, ...waiting]);
    expect(people.map((p) => p?.personId)).toEqual(Array.from({ length: 301 }, (_, i) => i));
    expect(api.calls.single).toBe(1);
    expect(api.calls.batch).toEqual([100, 100, 100]);
    expect(gate.load).toMatchObject({ running: 0, identity: 0 });
  });

  it('when the lookups waiting reach the gate’s bound, then the next one is refused at once with a Retry-After, and the others are answered', async () => {
    const api = await heldApi();
    closers.push(api.close);
    const gate = new ApiGate({ inFlight: 1, queued: 2, maxWaitMs: 120_000 });
    const client = new ApiClient(api.url, 10_000, gate);
    closers.push(() => client.close());

    const first = client.identify('t0');
    await until(() => api.held() === 1);
    const waiting = [client.identify('t1'), client.identify('t2')];
    await expect(client.identify('t3')).rejects.toMatchObject({ retryAfterSeconds: expect.any(Number) });

    api.release();
    expect((await Promise.all([first, ...waiting])).map((p) => p?.personId)).toEqual([0, 1, 2]);
  });
});
