// A small TCP proxy the chaos harness puts between two tiers (gateway → api, api → PostgreSQL,
// gateway → Redis): it forwards bytes both ways, and on demand cuts every open connection or
// delays what passes for a while (a slow or flaky network between the tiers). While its target
// refuses connections (a killed process, one not listening yet) the proxy does not listen either,
// so callers get ECONNREFUSED as on a real network: before, it accepted each connection and closed
// it unanswered, which a caller cannot tell from a cut (README "Chaos run: why a gateway refused tabs").
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Ends every connection open now (both sides see a reset); new ones are accepted at once. */
  cut(): number;
  /** Holds each chunk `ms` before passing it on, until `delay(0)`. */
  delay(ms: number): void;
  close(): Promise<void>;
}

export async function startProxy(targetPort: number, host = '127.0.0.1'): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let delayMs = 0;
  let closed = false;
  let refusing = false;
  let port = 0;
  const pipe = (from: Socket, to: Socket) =>
    from.on('data', (chunk) => {
      if (delayMs === 0) return void to.write(chunk);
      // Pausing keeps the order of the chunks while each one waits.
      from.pause();
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
        from.resume();
      }, delayMs);
    });
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, host);
    open.add(client);
    open.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream
      .on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ECONNREFUSED') {
          client.resetAndDestroy();
          refuseUntilBack();
        }
        end();
      })
      .on('close', end);
    pipe(client, upstream);
    pipe(upstream, client);
  });
  // Stops listening, and listens again on the same port once the target accepts a connection.
  const refuseUntilBack = () => {
    if (refusing || closed) return;
    refusing = true;
    server.close();
    const probe = () => {
      if (closed) return;
      const s = connect(targetPort, host);
      s.once('connect', () => {
        s.destroy();
        refusing = false;
        if (!closed) server.listen(port, host);
      });
      s.on('error', () => undefined).once('error', () => setTimeout(probe, 100));
    };
    probe();
  };
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  port = (server.address() as { port: number }).port;
  return {
    port,
    cut() {
      const n = open.size;
      for (const s of open) s.resetAndDestroy();
      open.clear();
      return n;
    },
    delay(ms) {
      delayMs = ms;
    },
    async close() {
      closed = true;
      for (const s of open) s.destroy();
      if (server.listening) await new Promise((r) => server.close(r));
    },
  };
}
