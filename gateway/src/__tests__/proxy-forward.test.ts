// The proxy's forwarding on its pool of api connections (issue 34: undici's Pool instead of
// node:http's client): what passes and what does not in either direction, bodies and answers
// streamed whole both ways, the browser going away, an answer broken off, and the pool's idle
// connections closed before the api's keep-alive timeout would close them under a call (issue 31).
// The proxy under test is the real one, in a real node:http server; a real server stands in for
// the api.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_REVOKED_HEADER } from '@pm/shared';
import { createLogger } from '../logger';
import { GatewayMetrics } from '../metrics';
import { createApiProxy } from '../proxy';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

/** The gateway's proxy alone in front of `apiPort`, as server.ts mounts it (`/api` cut off). */
async function gateway(apiPort: number, idleSocketMs?: number): Promise<{ port: number; signedOut: string[] }> {
  const signedOut: string[] = [];
  const proxy = createApiProxy({
    apiUrl: `http://127.0.0.1:${apiPort}`,
    logger: createLogger('silent'),
    metrics: new GatewayMetrics(),
    hooks: { signedOut: (token) => signedOut.push(token) },
    idleSocketMs,
    answerHeaders: ['x-frame-options', 'DENY', 'x-content-type-options', 'nosniff'],
  });
  const port = await listen(
    createServer((req, res) => {
      (req as { id?: string }).id = 'req-1';
      req.url = req.url!.slice(4) || '/';
      proxy(req, res);
    }),
  );
  return { port, signedOut };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  raw: string[];
  body: Buffer;
}

/** One call to the gateway; `body` is sent in chunks of 64 KB (chunked when `length` is unset). */
function call(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: Buffer },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/api/x',
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, raw: res.rawHeaders, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const body = options.body;
    if (!body) return void req.end();
    let at = 0;
    const more = () => {
      while (at < body.length) {
        const chunk = body.subarray(at, at + 65536);
        at += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', more);
      }
      req.end();
    };
    more();
  });
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('the proxy on its pool of api connections', () => {
  it("when a call passes, then hop-by-hop and forwarding headers stay behind both ways, the api's headers win and its revoked-token word stays with the gateway", async () => {
    let seen: IncomingHttpHeaders = {};
    let seenRaw: string[] = [];
    const apiPort = await listen(
      createServer((req, res) => {
        seen = req.headers;
        seenRaw = req.rawHeaders;
        res.writeHead(200, [
          'Content-Type',
          'application/json',
          'X-Frame-Options',
          'SAMEORIGIN',
          'Keep-Alive',
          'timeout=77',
          'Proxy-Connection',
          'keep-alive',
          'Set-Cookie',
          'a=1',
          'Set-Cookie',
          'b=2',
          TOKEN_REVOKED_HEADER,
          '1',
        ]);
        res.end('{"code":200}');
      }),
    );
    const gw = await gateway(apiPort);
    const answer = await call(gw.port, {
      path: '/api/auth/sign-out?x=1',
      headers: {
        authorization: 'Bearer tok-1',
        'keep-alive': 'timeout=99',
        'proxy-connection': 'keep-alive',
        te: 'trailers',
        'x-forwarded-for': '6.6.6.6',
        'x-forwarded-host': 'evil',
        'x-real-ip': '6.6.6.6',
        forwarded: 'for=6.6.6.6',
        'x-request-id': 'from-browser',
        lang: 'zh-TW',
        host: 'console.example',
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('{"code":200}');
    // What the api was sent.
    for (const name of ['keep-alive', 'proxy-connection', 'te', 'x-real-ip', 'forwarded'])
      expect(seen[name], name).toBeUndefined();
    expect(seen.host).toBe(`127.0.0.1:${apiPort}`);
    expect(seen['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen['x-forwarded-proto']).toBe('http');
    expect(seen['x-forwarded-host']).toBe('console.example');
    expect(seen['x-request-id']).toBe('req-1');
    expect(seen.authorization).toBe('Bearer tok-1');
    expect(seen.lang).toBe('zh-TW');
    expect(seenRaw.filter((h) => h.toLowerCase() === 'host')).toHaveLength(1);
    // What the browser got.
    expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-request-id']).toBe('req-1');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(answer.headers[TOKEN_REVOKED_HEADER]).toBeUndefined();
    expect(answer.headers['keep-alive']).not.toBe('timeout=77');
    expect(answer.headers['proxy-connection']).toBeUndefined();
    // The api's names in lower case, as node:http's client gave them before.
    expect(answer.raw).toContain('set-cookie');
    expect(answer.raw).not.toContain('Set-Cookie');
    expect(gw.signedOut).toEqual(['tok-1']);
  });

  it('when a large upload is sent chunked or with Expect: 100-continue, then the api receives it whole, and a large answer reaches the browser whole', async () => {
    const upload = randomBytes(3 * 1024 * 1024 + 17);
    const large = randomBytes(8 * 1024 * 1024 + 5);
    const received: { sha: string; length: number; headers: IncomingHttpHeaders }[] = [];
    const apiPort = await listen(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks);
          received.push({ sha: sha(body), length: body.length, headers: req.headers });
          if (req.url === '/large') {
            res.writeHead(200, { 'content-type': 'application/octet-stream' });
            let at = 0;
            const more = () => {
              while (at < large.length) {
                const chunk = large.subarray(at, at + 100_000);
                at += chunk.length;
                if (!res.write(chunk)) return void res.once('drain', more);
              }
              res.end();
            };
            more();
          } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":200}');
        });
      }),
    );
    const gw = await gateway(apiPort);
    const chunked = await call(gw.port, { method: 'POST', path: '/api/upload', body: upload });
    expect(chunked.status).toBe(200);
    const withLength = await call(gw.port, {
      method: 'PUT',
      path: '/api/upload',
      body: upload,
      headers: { 'content-length': String(upload.length), expect: '100-continue' },
    });
    expect(withLength.status).toBe(200);
    expect(received.map((r) => [r.sha, r.length])).toEqual([
      [sha(upload), upload.length],
      [sha(upload), upload.length],
    ]);
    expect(received[1].headers['content-length']).toBe(String(upload.length));
    const answer = await call(gw.port, { path: '/api/large' });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(large.length);
    expect(sha(answer.body)).toBe(sha(large));
  });

  it("when the browser goes away during a long answer, then the api's call is stopped; when the api breaks its answer off, then the browser's is too", async () => {
    let apiSawClose: () => void;
    const closed = new Promise<void>((r) => (apiSawClose = r));
    const apiPort = await listen(
      createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '1000000' });
        res.write(Buffer.alloc(1000));
        if (req.url === '/broken') setTimeout(() => res.socket!.destroy(), 50);
        else res.on('close', () => apiSawClose());
      }),
    );
    const gw = await gateway(apiPort);
    await new Promise<void>((resolve) => {
      const req = request({ host: '127.0.0.1', port: gw.port, path: '/api/long' }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
      req.end();
    });
    await closed;
    await expect(call(gw.port, { path: '/api/broken' })).rejects.toThrow();
  });

  it('when a pooled connection is idle, then the gateway closes it before the api would; a call slower than that idle time is not cut', async () => {
    const sockets: Socket[] = [];
    const closedByGateway: Socket[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.end('{"code":200}'), req.url === '/slow' ? 400 : 0));
    });
    server.keepAliveTimeout = 60_000;
    server.on('connection', (socket: Socket) => {
      sockets.push(socket);
      socket.on('end', () => closedByGateway.push(socket));
    });
    const apiPort = await listen(server);
    const gw = await gateway(apiPort, 150);
    expect((await call(gw.port, { path: '/api/slow' })).status).toBe(200);
    expect((await call(gw.port, {})).status).toBe(200);
    const deadline = Date.now() + 10_000;
    while (closedByGateway.length < sockets.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(sockets.length).toBeGreaterThan(0);
    expect(closedByGateway.length).toBe(sockets.length);
  });
});
