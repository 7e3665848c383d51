// The real api behind a small proxy that can hold some of its answers back: a slow network between
// the gateway and the api, at a chosen moment. The api answers at once (as of that moment); the
// gateway reads the answer only when it is released. WebSocket upgrades (the upstream) pass through.
import { createServer, request } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SlowApi {
  url: string;
  /** From now on, answers to calls whose path passes `matches` wait for `release`. */
  hold(matches: (path: string) => boolean): void;
  /**
   * Sends the answers held so far and stops holding; with `matches`, sends only the held answers
   * to calls whose path passes it and goes on holding as before.
   */
  release(matches?: (path: string) => boolean): void;
  /** How many answers are being held. */
  held(): number;
  /** How many calls whose path passes `matches` reached the api so far. */
  seen(matches: (path: string) => boolean): number;
  close(): Promise<void>;
}

export async function slowApi(apiUrl: string): Promise<SlowApi> {
  const target = new URL(apiUrl);
  let matches: ((path: string) => boolean) | null = null;
  let waiting: { path: string; send: () => void }[] = [];
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const send = () => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        };
        if (matches?.(req.url ?? '')) waiting.push({ path: req.url ?? '', send });
        else send();
      },
    );
    upstream.on('error', () => {
      res.statusCode = 502;
      res.end();
    });
    req.pipe(upstream);
  });
  server.on('upgrade', (req, socket, head) => {
    const upstream = connect(Number(target.port), target.hostname, () => {
      let raw = `${req.method} ${req.url} HTTP/1.1\r\n`;
      for (let i = 0; i < req.rawHeaders.length; i += 2) raw += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
      upstream.write(`${raw}\r\n`);
      if (head.length > 0) upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    socket.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hold: (m) => {
      matches = m;
    },
    release: (only) => {
      if (!only) matches = null;
      const sends = only ? waiting.filter((w) => only(w.path)) : waiting;
      waiting = only ? waiting.filter((w) => !only(w.path)) : [];
      for (const w of sends) w.send();
    },
    held: () => waiting.length,
    seen: (m) => paths.filter(m).length,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
