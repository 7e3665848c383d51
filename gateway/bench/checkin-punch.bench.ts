// A punch reaches an open duty board (issue 32 budget: under 1 s), run by `npm run bench checkin`.
// On PostgreSQL at the size of the other check-in budgets: the demo estate, BENCH_STAFF staff
// (default 2,000) with 31 days of punches (as api/bench/checkin.bench.ts adds them), a real api
// and a real gateway process. One console tab holds the board open as the console does: a
// socket.io client subscribed to the `checkin` topic that moves the punching person on the board
// with the row the event carries (and reloads it, GET /api/base/checkin/board through the gateway,
// on an event without one). BENCH_PUNCHES punches (default 60)
// from BENCH_PUNCHERS staff accounts (default 10, each with a rule of its own: one shift round the
// clock, punching in and out in turn) go through the staff app's call (POST
// /api/app/checkin/punch through the gateway), one every 250 ms. For each punch: `deliveredMs`,
// from just before the call to the tab receiving the topic's event of that punch; `boardMs`, to
// the board showing the punch (the person's last punch at its time). One JSON line.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { io } from 'socket.io-client';
import { postgresSchema, runBench } from '../../api/bench/kit';
import { queryRows } from '../../api/src/db/sql';
import { createBenchPersons, type BenchApi } from './bench-accounts';

const STAFF = Number(process.env.BENCH_STAFF ?? 2_000);
const PUNCHES = Number(process.env.BENCH_PUNCHES ?? 60);
const PUNCHERS = Number(process.env.BENCH_PUNCHERS ?? 10);
const EVERY_MS = 250;
const BUDGET_MS = 1000;
const root = resolve(import.meta.dirname, '../..');
const log = (msg: string) => process.stderr.write(`[checkin-punch bench] ${msg}\n`);
const now = () => performance.timeOrigin + performance.now();
const round = (n: number) => Math.round(n * 10) / 10;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill()));
/** The demo's check-in place (api/src/seed/seed-checkin.ts). */
const PLACE = { lat: 22.2799, lng: 114.1588 };

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

async function startGatewayProcess(apiUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway/src/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), METRICS_PORT: 'off', API_URL: apiUrl, REDIS_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child };
    if (i > 300) throw new Error('gateway did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function call<T>(url: string, token: string, method: string, path: string, body?: object): Promise<T> {
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await res.json()) as { code: number; msg: string; data: T };
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${answer.msg}`);
  return answer.data;
}

async function main(): Promise<object> {
  const pg = await postgresSchema();
  if (!pg) throw new Error('no PostgreSQL reachable');
  const { startApi } = (await import(pathToFileURL(join(root, 'api/src/server.ts')).href)) as {
    startApi(o: object): Promise<BenchApi>;
  };
  const api = await startApi({ port: 0, seed: true, databaseUrl: pg.url, logLevel: 'silent' });
  let gateway: { url: string; child: ChildProcess } | null = null;
  try {
    log(`adding ${STAFF} staff and 31 days of punches`);
    const [e] = await queryRows<{ company_id: number; id: number; today: string; dept: number }>(
      api.db,
      sql`select he.company_id, he.id, (now() at time zone he.time_zone)::date::text as today,
                   (select d.id from department d where d.housing_estate_id = he.id order by d.sort limit 1 offset 1) as dept
            from housing_estate he order by he.id limit 1`,
    );
    await api.db.execute(sql`
      with p as (insert into person (company_id, housing_estate_id, name)
                 select ${e.company_id}, ${e.id}, 'Bench staff ' || g from generate_series(1, ${STAFF}) g returning id)
      insert into person_company (company_id, housing_estate_id, person_id, department_id)
      select ${e.company_id}, ${e.id}, id, ${e.dept} from p`);
    await api.db.execute(sql`
      insert into checkin_punch (company_id, housing_estate_id, person_id, kind, at, in_place, idempotency_key)
      select ${e.company_id}, ${e.id}, pc.person_id, k.kind,
             ((${e.today}::date - d)::timestamp + k.t + make_interval(mins => (pc.person_id % 13) - 4)) at time zone 'Asia/Hong_Kong',
             true, 'bench-' || pc.person_id || '-' || d || '-' || k.n
      from person_company pc, generate_series(1, 31) d,
           (values (1, 'in', time '08:00'), (2, 'out', time '12:00'), (3, 'in', time '13:00'), (4, 'out', time '17:00')) k(n, kind, t)
      where pc.housing_estate_id = ${e.id} and pc.department_id = ${e.dept} and pc.person_id % 17 <> d % 17`);
    await api.db.execute(sql`vacuum analyze checkin_punch`);
    await api.db.execute(sql`analyze person`);
    await api.db.execute(sql`analyze person_company`);

    // The punchers: staff accounts of the demo administrator's role, each with its own rule.
    const punchers = await createBenchPersons(api, PUNCHERS);
    gateway = await startGatewayProcess(api.url);
    const boardToken = punchers[0].token; // the administrator's role: checkin:view and checkin:rules
    for (const p of punchers)
      await call(gateway.url, boardToken, 'POST', '/base/checkin/rule/save', {
        personId: p.personId,
        effectiveFrom: e.today,
        workDays: [1, 2, 3, 4, 5, 6, 7],
        shifts: [{ start: '00:00', end: '00:00' }],
        earlyInMinutes: 0,
        lateOutMinutes: 0,
        placeName: 'Main gate',
        ...PLACE,
        radiusMetres: 200,
      });

    // The open board: a console tab subscribed to `checkin`, reloading the board on each event.
    const delivered = new Map<number, number>();
    const shown = new Map<number, number>();
    const waiting = new Map<number, { personId: number; at: string }>();
    const calledAt = new Map<number, number>();
    let boardLoads = 0;
    let boardPatches = 0;
    /** Rows that arrived before their punch's call answered (the punch id was not known yet). */
    const early = new Map<number, { personId: number; at: number }>();
    const tab = io(gateway.url, {
      auth: { token: boardToken },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((done, fail) => {
      tab.once('connect', () => done());
      tab.once('connect_error', fail);
    });
    const ack = (await tab.timeout(10_000).emitWithAck('subscribe', ['checkin'])) as unknown;
    log(`subscribed: ${JSON.stringify(ack)}`);
    let reloading: Promise<void> | null = null;
    let again = false;
    const reload = async () => {
      const board = await call<{ rows: { personId: number; lastPunchAt: string | null }[] }>(
        gateway!.url,
        boardToken,
        'GET',
        '/base/checkin/board',
      );
      boardLoads++;
      const at = now();
      const last = new Map(board.rows.map((r) => [r.personId, r.lastPunchAt]));
      for (const [id, w] of waiting)
        if (last.get(w.personId) && Date.parse(last.get(w.personId)!) >= Date.parse(w.at)) {
          shown.set(id, at);
          waiting.delete(id);
        }
    };
    // As the console: one load at a time; events during a load ask for one more after it.
    const onEvent = () => {
      if (reloading) {
        again = true;
        return;
      }
      reloading = (async () => {
        do {
          again = false;
          await reload().catch((err: Error) => log(`board: ${err.message}`));
        } while (again);
        reloading = null;
      })();
    };
    tab.on(
      'checkin' as never,
      (ev: {
        dataId?: number;
        payload?: { action?: string; row?: { personId: number; lastPunchAt: string | null } | null };
      }) => {
        if (ev.payload?.action === 'punch' && ev.dataId && !delivered.has(ev.dataId)) delivered.set(ev.dataId, now());
        // As the console: an event with the person's row moves them in place; one without reloads.
        const row = ev.payload?.row;
        if (row === undefined) return onEvent();
        boardPatches++;
        const at = now();
        for (const [id, w] of waiting)
          if (
            row &&
            w.personId === row.personId &&
            row.lastPunchAt &&
            Date.parse(row.lastPunchAt) >= Date.parse(w.at)
          ) {
            shown.set(id, at);
            waiting.delete(id);
          }
        if (ev.dataId && !calledAt.has(ev.dataId) && row) early.set(ev.dataId, { personId: row.personId, at });
      },
    );
    await reload(); // the first load, as a board opens

    log(`${PUNCHES} punches from ${PUNCHERS} staff, one every ${EVERY_MS} ms`);
    for (let i = 0; i < PUNCHES; i++) {
      const p = punchers[i % PUNCHERS];
      const kind = Math.floor(i / PUNCHERS) % 2 === 0 ? 'in' : 'out';
      const started = now();
      const answer = await call<{ punchId: number; at: string }>(gateway.url, p.token, 'POST', '/app/checkin/punch', {
        kind,
        ...PLACE,
        accuracyMetres: 8,
        deviceId: `bench-${i % PUNCHERS}`,
        idempotencyKey: `bench-punch-${process.pid}-${i}`,
      });
      calledAt.set(answer.punchId, started);
      const arrived = early.get(answer.punchId);
      if (arrived) shown.set(answer.punchId, arrived.at);
      else if (!shown.has(answer.punchId)) waiting.set(answer.punchId, { personId: p.personId, at: answer.at });
      await new Promise((r) => setTimeout(r, Math.max(0, EVERY_MS - (now() - started))));
    }
    for (let i = 0; i < 100 && (waiting.size || delivered.size < PUNCHES); i++) {
      if (waiting.size && !reloading) onEvent();
      await new Promise((r) => setTimeout(r, 100));
    }
    tab.disconnect();
    const latencies = (m: Map<number, number>) =>
      [...calledAt]
        .filter(([id]) => m.has(id))
        .map(([id, at]) => m.get(id)! - at)
        .sort((a, b) => a - b);
    const deliveredMs = latencies(delivered);
    const boardMs = latencies(shown);
    const figures = (xs: number[]) => ({
      p50: round(percentile(xs, 50)),
      p95: round(percentile(xs, 95)),
      max: round(xs[xs.length - 1]),
    });
    return {
      bench: 'checkin-punch',
      staff: STAFF,
      days: 31,
      punches: PUNCHES,
      punchers: PUNCHERS,
      delivered: deliveredMs.length,
      shownOnBoard: boardMs.length,
      boardLoads,
      boardPatches,
      deliveredMs: figures(deliveredMs),
      boardMs: figures(boardMs),
      targets: { boardP95Ms: BUDGET_MS },
      pass: deliveredMs.length === PUNCHES && boardMs.length === PUNCHES && percentile(boardMs, 95) < BUDGET_MS,
    };
  } finally {
    if (gateway && gateway.child.exitCode === null) {
      const exited = new Promise((r) => gateway!.child.once('exit', r));
      gateway.child.kill('SIGTERM');
      await exited;
    }
    await Promise.race([api.close(), new Promise((r) => setTimeout(r, 5000))]);
    await pg.drop();
  }
}

runBench('checkin-punch', main);
