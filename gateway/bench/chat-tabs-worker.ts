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

async function openTab(url: string, token: string): Promise<Tab> {
  const socket: Tab = io(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  socket.on('chat', (e: ChatEvent) => {
    if (e.kind === 'message' && e.payload.seq) arrivals.push(e.payload.seq, now());
  });
  socket.on('announcements', () => void background++);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  await socket.timeout(10_000).emitWithAck('subscribe', ['chat', 'announcements']);
  return socket;
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
      const results = await Promise.allSettled(jobs.slice(i, i + 25).map((token) => openTab(m.url!, token)));
      for (const r of results) {
        if (r.status === 'fulfilled') tabs.push(r.value);
        else {
          failed++;
          firstError ||= String((r.reason as Error)?.message ?? r.reason);
        }
      }
    }
    process.send!({ type: 'opened', count: tabs.length, failed, firstError });
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
