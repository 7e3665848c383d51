// A WebSocket client for tests of the upstream channel: records every message and waits for
// the one a test expects (generous timeouts, never timing assertions).
import WebSocket from 'ws';

export interface TestSocket {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  /** Resolves with the first message (already received or arriving) that matches. */
  waitFor(match: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves with the close code. */
  closed: Promise<number>;
  close(): Promise<void>;
}

/** Opens `ws://…/{token}/{personId}`; rejects with the HTTP status when the upgrade is refused. */
export function openSocket(baseUrl: string, token: string, personId: number | string): Promise<TestSocket> {
  const url = `${baseUrl.replace(/^http/, 'ws').replace(/\/$/, '')}/${encodeURIComponent(token)}/${personId}`;
  const ws = new WebSocket(url);
  const messages: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    messages.push(JSON.parse(data.toString()) as Record<string, unknown>);
    for (const w of waiters) w();
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const socket: TestSocket = {
    ws,
    messages,
    closed,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      if (ws.readyState === ws.CLOSED) return;
      ws.close();
      await closed;
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(socket));
    ws.once('unexpected-response', (_req, res) => {
      reject(Object.assign(new Error(`upgrade refused with ${res.statusCode}`), { status: res.statusCode }));
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

/** The HTTP status an upgrade attempt was refused with (throws if it was accepted). */
export async function refusedStatus(baseUrl: string, token: string, personId: number | string): Promise<number> {
  try {
    const s = await openSocket(baseUrl, token, personId);
    await s.close();
  } catch (err) {
    return (err as { status?: number }).status ?? -1;
  }
  throw new Error('the upgrade was accepted');
}
