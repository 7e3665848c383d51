// Bench helper process (forked with IPC) of chat.bench.ts: console tabs subscribed to chat and
// announcements. For every chat message a tab hears it records the message's seq and when it
// arrived; the announcements are the background load and are only counted.
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import type { ChatEvent, ClientToServerEvents, ServerToClientEvents } from '@pm/shared';

type Tab = Socket<ServerToClientEvents, ClientToServerEvents>;
const now = () => performance.timeOrigin + performance.now();
const tabs: Tab[] = [];
/** [seq, arrivedAt, seq, arrivedAt, …]. */
let arrivals: number[] = [];
let background = 0;
/** Tabs that opened only on a later attempt, and why the last such attempt failed. */
let retries = 0;
let lastRetryReason = '';

async function openTab(url: string, token: string): Promise<Tab> {
  const socket: Tab = io(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  socket.on('chat', (e: ChatEvent) => {
    if (e.kind === 'message' && e.payload.seq) arrivals.push(e.payload.seq, now());
  });
  socket.on('announcements', () => void background++);
  try {
    await new Promise<void>((resolve, reject) => {
      // socket.io-client reports a refused handshake (connect_error) but not a connection the
      // gateway closed before admitting it (its connectTimeout when a busy api answers the
      // identity late): that is a disconnect before connect, which left the bench waiting for
      // ever. Either ends the attempt, as does a minute without an answer.
      const timer = setTimeout(() => reject(new Error('no connect within 60 s')), 60_000);
      socket.once('connect', () => (clearTimeout(timer), resolve()));
      socket.once('connect_error', (err) => (clearTimeout(timer), reject(err)));
      socket.once(
        'disconnect',
        (reason) => (clearTimeout(timer), reject(new Error(`closed before connect: ${reason}`))),
      );
    });
    await socket.timeout(10_000).emitWithAck('subscribe', ['chat', 'announcements']);
    return socket;
  } catch (err) {
    socket.close();
    throw err;
  }
}

/** A tab that could not open tries again, as the console's socket does (at most 3 times in all). */
async function openTabRetrying(url: string, token: string): Promise<Tab> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openTab(url, token);
    } catch (err) {
      if (attempt >= 3) throw err;
      retries++;
      lastRetryReason = String((err as Error)?.message ?? err);
      await new Promise((r) => setTimeout(r, 1000 * attempt));
    }
  }
}

process.on('message', async (m: { type: string; url?: string; tokens?: string[]; tabsPerPerson?: number }) => {
  if (m.type === 'open') {
    // In batches of 25 per worker: handshakes in flight stay below the gateway's 100 unauthenticated
    // connections per address even when both workers open at once. A tab that fails is counted and
    // the first reason reported (before, a refused handshake left the bench waiting for ever).
    const jobs = m.tokens!.flatMap((token) => Array.from({ length: m.tabsPerPerson! }, () => token));
    let failed = 0;
    let firstError = '';
    for (let i = 0; i < jobs.length; i += 25) {
      const results = await Promise.allSettled(jobs.slice(i, i + 25).map((token) => openTabRetrying(m.url!, token)));
      for (const r of results) {
        if (r.status === 'fulfilled') tabs.push(r.value);
        else {
          failed++;
          firstError ||= String((r.reason as Error)?.message ?? r.reason);
        }
      }
      if (process.env.BENCH_VERBOSE)
        process.stderr.write(`[chat tabs ${process.pid}] ${tabs.length} open, ${failed} failed, ${retries} retried\n`);
    }
    process.send!({ type: 'opened', count: tabs.length, failed, firstError, retries, lastRetryReason });
  } else if (m.type === 'collect') {
    process.send!({ type: 'arrivals', values: arrivals, background });
    arrivals = [];
    background = 0;
  } else if (m.type === 'close') {
    for (const t of tabs) t.disconnect();
    process.send!({ type: 'closed' });
    process.disconnect();
  }
});
