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
