// Bench helper process (forked with IPC): the console tabs. Opens many socket.io tabs and records, for every event
// received, when it arrived and how long after the api push (the push carries its send time).
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import type { AnnouncementEvent, ClientToServerEvents, ServerToClientEvents } from '@pm/shared';

type Tab = Socket<ServerToClientEvents, ClientToServerEvents>;
const now = () => performance.timeOrigin + performance.now();
const tabs: Tab[] = [];
/** [arrivedAt, latency, arrivedAt, latency, …] in ms. */
let latencies: number[] = [];

async function openTab(url: string, token: string): Promise<Tab> {
  const socket: Tab = io(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  socket.on('announcements', (e: AnnouncementEvent) => {
    // The benchmark's own field on its pushes, beside the announcement's payload.
    const sentAt = Number((e.payload as { sentAt?: unknown }).sentAt);
    if (!sentAt) return;
    const arrivedAt = now();
    latencies.push(arrivedAt, arrivedAt - sentAt);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
  await socket.timeout(10_000).emitWithAck('subscribe', ['announcements']);
  return socket;
}

process.on('message', async (m: { type: string; url?: string; tokens?: string[]; tabsPerPerson?: number }) => {
  if (m.type === 'open') {
    // In batches of 50; a tab that fails to open (refused, or no answer within socket.io's 20 s
    // connect timeout) is counted and the first reason reported, so the bench never waits forever.
    const jobs = m.tokens!.flatMap((token) => Array.from({ length: m.tabsPerPerson! }, () => token));
    let failed = 0;
    let firstError = '';
    for (let i = 0; i < jobs.length; i += 50) {
      const results = await Promise.allSettled(jobs.slice(i, i + 50).map((token) => openTab(m.url!, token)));
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
    process.send!({ type: 'latencies', values: latencies });
    latencies = [];
  } else if (m.type === 'close') {
    for (const t of tabs) t.disconnect();
    process.send!({ type: 'closed' });
    process.disconnect();
  }
});
