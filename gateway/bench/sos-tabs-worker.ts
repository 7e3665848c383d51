// Bench helper process (forked with IPC) of sos.bench.ts: console tabs subscribed to alarms and
// announcements. For every SOS call a tab hears (kind 'sos') it records the call's id and when it
// arrived; the announcements are the background load and are only counted.
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import type { AlarmEvent, ClientToServerEvents, ServerToClientEvents } from '@pm/shared';

type Tab = Socket<ServerToClientEvents, ClientToServerEvents>;
const now = () => performance.timeOrigin + performance.now();
const tabs: Tab[] = [];
/** [sosId, arrivedAt, sosId, arrivedAt, …]. */
let arrivals: number[] = [];
let background = 0;

async function openTab(url: string, token: string): Promise<Tab> {
  const socket: Tab = io(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  socket.on('alarms', (e: AlarmEvent) => {
    if (e.kind === 'sos' && e.dataId) arrivals.push(e.dataId, now());
  });
  socket.on('announcements', () => void background++);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  await socket.timeout(10_000).emitWithAck('subscribe', ['alarms', 'announcements']);
  return socket;
}

process.on('message', async (m: { type: string; url?: string; tokens?: string[]; tabsPerPerson?: number }) => {
  if (m.type === 'open') {
    const jobs = m.tokens!.flatMap((token) => Array.from({ length: m.tabsPerPerson! }, () => token));
    for (let i = 0; i < jobs.length; i += 50)
      tabs.push(...(await Promise.all(jobs.slice(i, i + 50).map((token) => openTab(m.url!, token)))));
    process.send!({ type: 'opened', count: tabs.length });
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
