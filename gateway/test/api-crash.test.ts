// Issue 14 item 5: the counters a tab shows never drift, not even when the api is killed (-9) while
// residents file complaints and is started again on the same data. A real api PROCESS (PGlite and,
// with TEST_DATABASE_URL, PostgreSQL), a real gateway, a real tab, real resident calls.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { TOPICS } from '@pm/shared';
import type { GatewayHandle } from '../src/server';
import {
  apiProcess,
  complaintCounters,
  fileComplaint,
  login,
  openTab,
  residentOf,
  shownComplaintCounters,
  startTestGateway,
  type ApiProcess,
  type Resident,
} from './kit';

const RUNS = Number(process.env.CRASH_RUNS ?? 3);
const engines = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The gateway's delay between upstream reconnect attempts (see the gateway's start below). */
const RECONNECT_DELAY_MS = 2_500;
/** How long a run waits, once the api is back, for the tab to show the api's totals. */
const SETTLE_MS = 60_000;

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  cleanups = [];
});

/** The environment of an api process on a fresh database of the engine; dropped after the test. */
async function freshDatabase(engine: string): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-crash-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  if (engine === 'pglite') return { DATA_DIR: dataDir };
  const base = process.env.TEST_DATABASE_URL as string;
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop schema if exists ${schema} cascade`);
    await c.end();
  });
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { DATA_DIR: dataDir, DATABASE_URL: url.toString(), SEED_DEMO: '1' };
}

/** Residents file complaints one after another until stopped; calls that fail while the api is down are dropped. */
function fileComplaints(api: ApiProcess, residents: Resident[]): { stop(): Promise<number> } {
  let running = true;
  let filed = 0;
  const loops = residents.map(async (r, i) => {
    for (let n = 0; running; n++) {
      const ok = await fileComplaint(api.url, r, `Crash test ${i}.${n}`).then(
        () => true,
        () => false,
      );
      if (ok) filed++;
      else await sleep(50);
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return filed;
    },
  };
}

describe.each(engines)('an api killed while residents file complaints (%s)', (engine) => {
  it(
    `when the api is killed -9 and started again on the same data, ${RUNS} times, then each time the tab's counters settle on the api's totals`,
    async () => {
      const api = await apiProcess(await freshDatabase(engine));
      cleanups.push(() => api.stop());
      await api.start();
      // The upstream reconnects at most 50 times after a 1006 (SPEC §9), then stays closed. With
      // 300 ms between attempts that was 16 s of downtime, and under load (average 12-22) the api
      // process took 18-31 s to start again: the upstream gave up and the tab's counters stopped
      // following. 50 attempts 2.5 s apart outlast the 120 s and more that the kit gives the api to start.
      const gateway: GatewayHandle = await startTestGateway(api, { reconnectDelayMs: RECONNECT_DELAY_MS });
      cleanups.push(() => gateway.close());

      const admin = await login(api.url, 'admin', 'admin123');
      const tab = await openTab(gateway.url, admin);
      cleanups.push(async () => tab.close());
      await tab.subscribe([...TOPICS]);
      const residents = await Promise.all(['resident1', 'resident2', 'resident3'].map((n) => residentOf(api.url, n)));

      const results: {
        run: number;
        filed: number;
        /** The gateway's upstream reconnects so far: `run` once the upstream came back after each kill. */
        reconnects: number;
        shown: unknown;
        api: unknown;
        correct: boolean;
      }[] = [];
      for (let run = 1; run <= RUNS; run++) {
        const filing = fileComplaints(api, residents);
        await sleep(800 + Math.random() * 1200);
        await api.kill();
        await sleep(200);
        await api.start();
        await sleep(1500);
        const filed = await filing.stop();

        // Settled: the tab shows the api's totals (which no longer move). Polled until then: the
        // upstream's reconnect and the counters' reload take longer on a loaded machine.
        let expected = await complaintCounters(api.url, admin);
        let correct = false;
        for (const deadline = Date.now() + SETTLE_MS; !correct && Date.now() < deadline;) {
          await sleep(250);
          expected = await complaintCounters(api.url, admin);
          correct = JSON.stringify(shownComplaintCounters(tab)) === JSON.stringify(expected);
        }
        const reconnects = (await gateway.metrics.upstreamReconnects.get()).values[0]?.value ?? 0;
        results.push({ run, filed, reconnects, shown: shownComplaintCounters(tab), api: expected, correct });
        console.info(`[api-crash] ${engine} run ${run}: ${JSON.stringify(results[results.length - 1])}`);
      }
      console.info(
        `[api-crash] ${engine}: ${results.filter((r) => r.correct).length} of ${RUNS} runs ended with the api's totals`,
      );
      expect(results.filter((r) => !r.correct)).toEqual([]);
    },
    RUNS * (60_000 + SETTLE_MS) + 60_000,
  );
});
