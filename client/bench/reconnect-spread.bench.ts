// How the console's tabs come back after their gateway went away (issue 34, README "Part 18"),
// run by `npm run bench reconnect-spread`: a simulation, no browser. BENCH_TABS tabs (20,000) lose
// their gateway at the same instant; each waits the pauses socket.io-client's Manager draws (its
// Backoff: the minimum doubling per attempt, ± randomizationFactor, then capped at the maximum; the
// formula of socket.io-client/build/esm/contrib/backo2.js) until its first attempt after the gateway
// is back, BENCH_BACK_AFTER_S (1.5, 5 and 15 s) after the loss. For socket.io's defaults (1 s, 5 s,
// 0.5) and for the console's (firstReconnectPause(), RECONNECT_MAX_MS, 0.5): the most tabs arriving
// within one second, and when the median, the 99th percentile and the last tab arrive (seconds after
// the gateway is back; the handshakes' own time not included). Prints exactly one JSON line.
import { firstReconnectPause, RECONNECT_MAX_MS } from '@pm/shared';

const TABS = Number(process.env.BENCH_TABS ?? 20_000);
const BACK_AFTER_S = (process.env.BENCH_BACK_AFTER_S ?? '1.5,5,15').split(',').map(Number);
const RANDOMIZATION = 0.5;

/** socket.io-client's Backoff.duration() for attempt `attempt` (0, 1, …). */
function backoff(min: number, max: number, attempt: number): number {
  let ms = min * 2 ** attempt;
  const rand = Math.random();
  const deviation = Math.floor(rand * RANDOMIZATION * ms);
  ms = (Math.floor(rand * 10) & 1) === 0 ? ms - deviation : ms + deviation;
  return Math.min(ms, max) | 0;
}

/** When each tab's first attempt after `backMs` comes, as ms after `backMs`, ascending. */
function arrivals(firstMin: () => number, max: number, backMs: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < TABS; i++) {
    const min = firstMin();
    let t = 0;
    for (let attempt = 0; t < backMs; attempt++) t += backoff(min, max, attempt);
    out.push(t - backMs);
  }
  return out.sort((a, b) => a - b);
}

function figures(sorted: number[]) {
  const perSecond = new Map<number, number>();
  for (const ms of sorted) perSecond.set(Math.floor(ms / 1000), (perSecond.get(Math.floor(ms / 1000)) ?? 0) + 1);
  const s = (ms: number) => Math.round(ms / 100) / 10;
  return {
    peakPerSecond: Math.max(...perSecond.values()),
    p50S: s(sorted[Math.floor(sorted.length / 2)]),
    p99S: s(sorted[Math.floor(sorted.length * 0.99)]),
    lastS: s(sorted[sorted.length - 1]),
  };
}

const results = BACK_AFTER_S.map((back) => ({
  backAfterS: back,
  socketIoDefaults: figures(arrivals(() => 1000, 5000, back * 1000)),
  console: figures(arrivals(() => firstReconnectPause(), RECONNECT_MAX_MS, back * 1000)),
}));
console.log(JSON.stringify({ bench: 'reconnect-spread', tabs: TABS, results }));
