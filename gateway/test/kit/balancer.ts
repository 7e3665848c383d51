// A load balancer in front of gateway instances, as a deployment puts one: TCP, each new connection
// to the instance with the fewest open connections through it (nginx's least_conn). Instances can be
// added while it runs (a gateway started later).
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  url: string;
  /** Sends new connections to this gateway too (its http URL). */
  add(gatewayUrl: string): void;
  /** Open connections through the balancer to each gateway, by URL. */
  open(): Record<string, number>;
  close(): Promise<void>;
}

export async function leastConnections(gatewayUrls: string[]): Promise<Balancer> {
  const backends = new Map<string, { port: number; host: string; open: number }>();
  const add = (url: string) => {
    const u = new URL(url);
    backends.set(url, { host: u.hostname, port: Number(u.port), open: 0 });
  };
  gatewayUrls.forEach(add);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const backend = [...backends.values()].sort((a, b) => a.open - b.open)[0];
    backend.open++;
    const upstream = connect(backend.port, backend.host);
    sockets.add(client).add(upstream);
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      backend.open--;
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.pipe(upstream).pipe(client);
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    add,
    open: () => Object.fromEntries([...backends].map(([url, b]) => [url, b.open])),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
