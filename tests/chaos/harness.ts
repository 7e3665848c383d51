// The chaos harness (issue 35, README "Chaos run"): the whole topology of docker-compose.yml on
// this machine — its own PostgreSQL and Redis, two api processes, two gateways, a TCP proxy of the
// harness on every link between tiers — with residents writing and staff tabs listening while
// faults are injected at random from a printed seed. At the end, with every process back, it
// checks what was acknowledged against the database and what each tab holds, and answers one
// report (printed as one JSON line by cli.ts).
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import {
  applyEvent,
  emptySnapshot,
  snapshotAfterConnect,
  TOPICS,
  type ClientToServerEvents,
  type LiveEvent,
  type LiveSnapshot,
  type ServerToClientEvents,
} from '@pm/shared';
import { ApiError, ResidentClient, type House } from '../../api/src/simulator/resident-client';
import { spawnService, type ServiceProcess } from '../support/processes';
import { freePort } from '../support/product';
import { BrowserTab, type AlarmHow } from './browser-tab';
import { startProxy, type TcpProxy } from './proxy';
import { runningServers, startPostgres, startRedis, type Server } from './servers';

export interface ChaosOptions {
  seed: number;
  /** Faults to inject in all. */
  faults: number;
  /** At most this many at once. */
  concurrent: number;
  /** A new fault is considered every this many ms. */
  faultEveryMs: number;
  /** Resident writes per second over all residents. */
  writesPerSecond: number;
  /** Disaster warnings released by staff during the run, one every this many ms (0: none). */
  warningEveryMs?: number;
  /** Tabs retry a failed catch-up read (default) instead of waiting for the next snapshot. */
  retryCatchUp?: boolean;
  /** Console tabs of the administrator (socket.io clients), spread over both gateways. */
  tabs: number;
  /** Also the real console in Chromium (needs client/dist: npm run build), on the next gateway in turn. */
  browser?: boolean;
  print: (line: string) => void;
}

/** How a tab first knew of an alarm: a live push, or the catch-up read on a (re)connect, on a snapshot, or a retry of a failed read. */
export type { AlarmHow };

export const FAULT_KINDS = [
  'killApi',
  'killGateway',
  'freezeApi',
  'freezeGateway',
  'restartPostgres',
  'redisGone',
  'cutApiLink',
  'cutPostgresLink',
  'cutRedisLink',
  'slowApiLink',
  'dropTab',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const WRITE_KINDS = ['complaint', 'workOrder', 'reply', 'sos', 'chat', 'disasterReply', 'vote', 'join'] as const;
/** Joins per resident at most (the api allows 20 join requests an hour per account, resends included). */
const JOINS_PER_RESIDENT = 12;
/** How long writes still unanswered are resent after the faults, once every process answers /health. */
const SETTLE_MS = 180_000;
type WriteKind = (typeof WRITE_KINDS)[number];

interface Write {
  kind: WriteKind;
  marker: string;
  acked: boolean;
  id?: number;
  sentAt: number;
  /** When the api's answer came (the write was stored by then). */
  ackedAt?: number;
  attempts: number;
  /** A 4xx answer (not 429): the api refused the write (an answer, not stored). */
  refused?: number;
  /** Disaster replies and votes replace the person's earlier answer: `warning or vote:person`. */
  pair?: string;
  /** The options a vote chose. */
  optionIds?: number[];
  /** A join: the person and the unit whose invite code was sent (one request must be stored). */
  join?: { personId: number; unitId: number };
  /** A chat message's conversation, and a member (the sender) who reads it back at the end. */
  groupId?: number;
  reader?: ResidentClient;
}

interface FaultFigures {
  injected: number;
  failedToRecover: number;
  worstRecoveryMs: number;
}

export interface ChaosReport {
  seed: number;
  /** Where the processes' logs and faults.jsonl are (kept after the run; the short run's test removes them when it passed). */
  logDir: string;
  faults: number;
  durationS: number;
  writes: number;
  acknowledged: number;
  /** Acknowledged writes not in the database. */
  lost: number;
  /** Writes stored more than once. */
  duplicates: number;
  /**
   * Writes never answered, though resent with their client id until every process was back and
   * for `SETTLE_MS` more (as a resident's app resends a cut call until it is answered), that the
   * database holds anyway / does not hold.
   */
  unansweredStored: number;
  unansweredNotStored: number;
  /** Why writes went unanswered: kind and the last HTTP status (or "no answer"). */
  unanswered: Record<string, number>;
  /** Writes the api refused (4xx other than 429), by kind and status: answered, not stored. */
  refused: Record<string, number>;
  /** Writes answered with a refusal that the database holds anyway (a resend refused after the first was stored). */
  refusedStored: number;
  /** Writes answered more than 90 s after their first send (resent through faults meanwhile). */
  answeredAfter90s: number;
  /** The longest a write waited for its answer, resends included. */
  slowestAnswerMs: number;
  /** Staff warning releases that got no answer within 60 s of resending (not resident writes), by last status. */
  warningsNotReleased: Record<string, number>;
  countersWrong: number;
  alarmsMissed: number;
  worstAlarmDelayMs: number;
  /** Disaster warnings released by staff during the run (acknowledged) and tab × warning never seen. */
  warnings: number;
  warningsMissed: number;
  /**
   * Alarm (SOS call or warning) × tab, by how the tab first knew of it: how many, the worst delay
   * from the resident's press (or the staff's release), and the worst part of it after the api
   * had answered the write (the rest is the write being resent through faults).
   */
  alarmDelays: Partial<Record<AlarmHow, { n: number; worstMs: number; worstAfterAckMs: number }>>;
  /** Alarms that reached a tab more than 5 s after the api answered, by the faults on that tab's path meanwhile. */
  slowAlarmCauses: Record<string, { n: number; worstAfterAckMs: number }>;
  chatDuplicates: number;
  chatOutOfOrder: number;
  /** Acknowledged chat messages missing from a member's history of the conversation (read at the end). */
  chatMissing: number;
  processesDown: string[];
  /** Ends of an api or gateway the harness did not cause (restarted as compose would). */
  crashes: string[];
  /** Starts that ended before answering because a dependency was away (restarted as compose would). */
  failedStarts: number;
  byKind: Partial<Record<WriteKind, { acked: number; lost: number; duplicates: number }>>;
  byFault: Partial<Record<FaultKind, FaultFigures>>;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same faults in the same order. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function healthy(url: string): Promise<boolean> {
  return fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.ok,
    () => false,
  );
}

/** The process answers HTTP at all (a gateway answers 503 while its api or Redis is away). */
async function answering(url: string): Promise<boolean> {
  return fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).then(
    () => true,
    () => false,
  );
}

async function until(probe: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
}

/** Every process the harness started and has not seen end: killed by {@link stopEverything}. */
const children = new Set<{ kill(signal: NodeJS.Signals): unknown }>();
process.once('exit', () => stopEverything());

/** Kills whatever the harness left running (a test that timed out, Ctrl+C). */
export function stopEverything(): void {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
  for (const [server, signal] of runningServers) server.kill(signal);
}

/**
 * An api or gateway process the harness can kill, freeze and start again on the same port. Like
 * compose's `restart: unless-stopped`, it is started again whenever it ends without the harness
 * having killed it: at start-up because what it needs is away (PostgreSQL restarting), or later
 * (a crash, counted in `crashes` with its last output).
 */
class Tier {
  process!: ServiceProcess;
  /** Ends the harness did not cause, after the process had answered. */
  crashes: string[] = [];
  /** Starts that ended before answering (a dependency away), each restarted after a second. */
  failedStarts = 0;
  private killing = false;
  private stopped = false;
  /** Every start's stdout and stderr, appended (kept after the run: `logs/<name>.log`). */
  private readonly log: WriteStream;
  constructor(
    readonly name: string,
    readonly tier: 'api' | 'gateway',
    readonly url: string,
    private readonly env: Record<string, string>,
    logDir: string,
  ) {
    this.log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  }
  private spawn(): ServiceProcess {
    const started = spawnService(this.tier, this.env);
    this.process = started;
    this.log.write(`${JSON.stringify({ harness: 'started', pid: started.child.pid, time: Date.now() })}\n`);
    started.child.stdout!.on('data', (chunk: Buffer) => this.log.write(chunk));
    started.child.stderr!.on('data', (chunk: Buffer) => this.log.write(chunk));
    void started.exited.then((code) =>
      this.log.write(`${JSON.stringify({ harness: 'ended', pid: started.child.pid, code, time: Date.now() })}\n`),
    );
    const handle = { kill: (sig: NodeJS.Signals) => started.child.kill(sig) };
    children.add(handle);
    void started.exited.then(() => children.delete(handle));
    return started;
  }
  /** Starts the process (again after each early end) until it answers HTTP. */
  async start(timeoutMs = 240_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    this.killing = false;
    for (;;) {
      const p = this.spawn();
      const answered = await until(
        async () => !p.alive() || (await answering(this.url)),
        Math.max(0, deadline - Date.now()),
      );
      if (answered && p.alive()) {
        void p.exited.then((code) => this.ended(p, code));
        return;
      }
      if (p.alive()) throw new Error(`${this.name} did not answer after its start:\n${p.text().slice(-2000)}`);
      this.failedStarts += 1;
      if (Date.now() > deadline)
        throw new Error(`${this.name} kept ending at start: ${JSON.stringify(p.lines.slice(-3))}`);
      await sleep(1000);
    }
  }
  private ended(p: ServiceProcess, code: number | string) {
    if (this.killing || this.stopped || p !== this.process) return;
    this.crashes.push(`${code}: ${p.text().slice(-500)} ${JSON.stringify(p.lines.slice(-3)).slice(0, 1000)}`);
    void this.start().catch(() => undefined);
  }
  async kill(): Promise<void> {
    this.killing = true;
    this.process.child.kill('SIGKILL');
    await this.process.exited;
  }
  signal(sig: NodeJS.Signals): void {
    this.process.child.kill(sig);
  }
  /** The end of the run: no restart any more. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.process.stop('SIGKILL');
    await new Promise((r) => this.log.end(r));
  }
}

/**
 * A console tab as client/src/modules/live/states/liveState.ts keeps it: a socket.io client that
 * reconnects and subscribes to every topic; after each (re)connect the next snapshot is taken
 * whatever its version, events before the first snapshot are ignored. On every (re)connect and
 * every snapshot it reads the open SOS calls and the latest warnings, retrying a failed read, as
 * the console does to catch up on missed alarms (client/src/modules/disaster/states/alarmCatchUp.ts).
 */
class ConsoleTab {
  socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  events: { e: LiveEvent; at: number }[] = [];
  /** When each SOS call id was first known to this tab (live push or catch-up read). */
  sosSeen = new Map<number, number>();
  /** When each disaster warning id was first known to this tab (live push or catch-up read). */
  warnSeen = new Map<number, number>();
  /** How each alarm (`sos:id`, `warn:id`) was first known: live, or which catch-up read found it. */
  seenHow = new Map<string, AlarmHow>();
  held: LiveSnapshot = emptySnapshot();
  loaded = false;
  acceptAny = true;
  /** The events since the last connect, until its first snapshot. */
  sinceConnect: LiveEvent[] = [];
  topics: string[] = [];
  snapshots = 0;
  /** Why the socket was closed, each time (socket.io's reasons). */
  disconnects: string[] = [];
  /** What happened to the tab and when (connects, closes, snapshots, catch-up reads): to explain a late alarm. */
  trace: { at: number; what: string }[] = [];
  private note(what: string) {
    this.trace.push({ at: Date.now(), what });
  }
  constructor(
    readonly gatewayUrl: string,
    readonly token: string,
    /** Whether a failed catch-up read is tried again (the console's behaviour since issue 35) or waits for the next snapshot. */
    private readonly retryCatchUp = true,
  ) {
    this.socket = io(gatewayUrl, {
      auth: { token },
      transports: ['websocket'],
      reconnection: true,
      reconnectionDelay: 200,
      reconnectionDelayMax: 2000,
      forceNew: true,
    });
    this.socket.on('connect', () => {
      this.note('connect');
      this.acceptAny = true;
      this.sinceConnect = [];
      // As the console: what was missed while away is read at once, not only with the snapshot.
      void this.catchUp('catchUpReconnect');
      this.socket
        .timeout(10_000)
        .emitWithAck('subscribe', [...TOPICS])
        .then(
          (ack) => (this.topics = ack.topics),
          () => this.socket.io.engine?.close(), // not answered: reconnect and try again
        );
    });
    // As client/src/modules/live/utils/liveSocket.ts: socket.io retries transport failures by
    // itself; a close by the gateway or a refused handshake is retried a second later.
    const retryLater = () => setTimeout(() => this.socket.connect(), 1000);
    this.socket.on('disconnect', (reason) => {
      this.note(`disconnect ${reason}`);
      this.disconnects.push(reason);
      if (reason === 'io server disconnect') retryLater();
    });
    this.socket.on('connect_error', (err) => {
      this.note(`connect_error ${err.message}`);
      this.disconnects.push(`connect_error: ${err.message}`);
      if (!this.socket.active) retryLater();
    });
    this.socket.on('snapshot', (s) => {
      this.note(`snapshot ${s.version}`);
      this.snapshots += 1;
      this.loaded = true;
      // As the console (client/src/modules/live/states/liveState.ts): the first snapshot after a
      // (re)connect is taken whatever its version, brought up to the events that came before it.
      if (this.acceptAny) this.held = snapshotAfterConnect(s, this.sinceConnect);
      else if (s.version >= this.held.version) this.held = s;
      this.acceptAny = false;
      this.sinceConnect = [];
      void this.catchUp('catchUpSnapshot');
    });
    for (const t of TOPICS)
      this.socket.on(t, ((e: LiveEvent) => {
        const at = Date.now();
        this.events.push({ e, at });
        if (e.topic === 'alarms' && e.kind === 'sos' && e.dataId !== undefined) this.saw('sos', e.dataId, at, 'live');
        if (e.topic === 'alarms' && e.kind === 'disasterWarning' && e.dataId !== undefined)
          this.saw('warn', e.dataId, at, 'live');
        // As the console: every live SOS event reads the open calls again (calls missed meanwhile come with it).
        if (e.topic === 'alarms' && e.kind.startsWith('sos')) void this.readList('sos', 'catchUpEvent');
        if (this.acceptAny) this.sinceConnect.push(e);
        if (this.loaded) this.held = applyEvent(this.held, e);
      }) as never);
  }
  connected(): boolean {
    return this.socket.connected;
  }
  ready(): boolean {
    return this.topics.includes('alarms');
  }
  /** The transport closes as on a network blip; socket.io reconnects on its own. */
  async drop(): Promise<void> {
    this.socket.io.engine?.close();
  }
  async close(): Promise<void> {
    this.socket.disconnect();
  }
  private saw(kind: 'sos' | 'warn', id: number, at: number, how: AlarmHow) {
    const seen = kind === 'sos' ? this.sosSeen : this.warnSeen;
    if (seen.has(id)) return;
    seen.set(id, at);
    this.seenHow.set(`${kind}:${id}`, how);
  }
  /**
   * As the console (client/src/modules/disaster, SosAlarmCenter.tsx): on every (re)connect and
   * snapshot the open SOS calls and the latest warnings are read, each on its own (one failing
   * does not hold back the other); the open calls are read again on every live SOS event. A read
   * that fails (the gateway's api away) is tried again after a growing pause (1 s doubling to 8 s)
   * until it succeeds or a newer read of the same list starts.
   */
  private catchUp(why: AlarmHow) {
    void this.readList('sos', why);
    void this.readList('warn', why);
  }
  private readonly reads = { sos: 0, warn: 0 };
  private async readList(kind: 'sos' | 'warn', why: AlarmHow) {
    const run = ++this.reads[kind];
    for (let n = 0; run === this.reads[kind]; n++) {
      const how = n === 0 ? why : 'catchUpRetry';
      try {
        const res = await fetch(
          `${this.gatewayUrl}/api${kind === 'sos' ? '/disaster/sos/open' : '/disaster/warn/page'}`,
          {
            method: kind === 'sos' ? 'GET' : 'POST',
            headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
            body: kind === 'sos' ? undefined : JSON.stringify({ page: 1, limit: 20 }),
            signal: AbortSignal.timeout(10_000),
          },
        );
        if (!res.ok) throw new Error(String(res.status));
        const data = ((await res.json()) as { data: { id: number }[] | { list: { id: number }[] } }).data;
        const list = Array.isArray(data) ? data : data.list;
        const at = Date.now();
        this.note(`read ${kind} ${how} ok: ${list.length}`);
        for (const x of list) this.saw(kind, x.id, at, how);
        return;
      } catch (err) {
        this.note(`read ${kind} ${how} failed: ${(err as Error).message.slice(0, 80)}`);
        if (!this.retryCatchUp) return;
        await sleep(Math.min(8000, 1000 * 2 ** n));
      }
    }
  }
}

export async function runChaos(o: ChaosOptions): Promise<ChaosReport> {
  const random = prng(o.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const startedAt = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'pm-chaos-'));
  // The processes' logs outlive the run (the rest of `dir` does not), to explain what it found.
  const logDir = mkdtempSync(join(tmpdir(), 'pm-chaos-logs-'));
  const cleanups: (() => Promise<unknown>)[] = [];
  o.print(`chaos: seed ${o.seed}, ${o.faults} faults, at most ${o.concurrent} at once, in ${dir}`);
  o.print(`chaos: the apis' and gateways' logs (stdout and stderr of every start) and faults.jsonl go to ${logDir}`);

  try {
    // The engines, each behind a proxy of the harness.
    const pgDir = mkdtempSync(join(tmpdir(), 'pm-chaos-pg-'));
    cleanups.push(async () => rmSync(pgDir, { recursive: true, force: true }));
    const postgres = await startPostgres(pgDir);
    cleanups.push(() => postgres.stop('SIGQUIT'));
    const redis = await startRedis();
    await redis.start();
    cleanups.push(() => redis.stop());
    const pgLink = await startProxy(postgres.port);
    const redisLink = await startProxy(redis.port);
    cleanups.push(
      () => pgLink.close(),
      () => redisLink.close(),
    );

    // Two apis on one database, as two replicas of compose's api service would be.
    const apis: Tier[] = [];
    const apiLinks: TcpProxy[] = [];
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const api = new Tier(
        `api${i + 1}`,
        'api',
        `http://127.0.0.1:${port}`,
        {
          API_PORT: String(port),
          API_HOST: '127.0.0.1',
          DATABASE_URL: `postgres://postgres@127.0.0.1:${pgLink.port}/pm`,
          DATA_DIR: join(dir, 'data'),
          SEED_DEMO: '1',
          API_METRICS_PORT: 'off',
          LOG_LEVEL: 'warn',
        },
        logDir,
      );
      // The first seeds the demo estate; the second starts on it.
      await api.start();
      cleanups.push(() => api.stop());
      apis.push(api);
      const link = await startProxy(port);
      cleanups.push(() => link.close());
      apiLinks.push(link);
    }
    // Both gateways start side by side (each waits only for its own health).
    const gateways: Tier[] = [];
    for (let i = 0; i < 2; i++) {
      const [port, metricsPort] = [await freePort(), await freePort()];
      const gateway = new Tier(
        `gateway${i + 1}`,
        'gateway',
        `http://127.0.0.1:${port}`,
        {
          PORT: String(port),
          HOST: '127.0.0.1',
          // Its own api first, the other while that one is down (gateway/src/api-targets.ts).
          API_URLS: [apiLinks[i], apiLinks[1 - i]].map((l) => `http://127.0.0.1:${l.port}`).join(','),
          REDIS_URL: `redis://127.0.0.1:${redisLink.port}`,
          METRICS_PORT: String(metricsPort),
          METRICS_HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
        },
        logDir,
      );
      cleanups.push(() => gateway.stop());
      gateways.push(gateway);
    }
    await Promise.all(gateways.map((g) => g.start()));
    o.print('chaos: PostgreSQL, Redis, 2 apis and 2 gateways are up');

    // Residents sign in once per gateway (the app reaches the api through either).
    // Each also answers the disaster warnings and open votes it received (one answer in flight
    // per resident, so the last one acknowledged is the one the database must hold).
    const residents: {
      clients: ResidentClient[];
      houses: House[];
      complaints: number[];
      workOrders: number[];
      personId: number;
      warnings: number[];
      votes: { id: number; optionIds: number[] }[];
      answering: boolean;
      joins: number;
    }[] = [];
    for (let i = 1; i <= 5; i++) {
      const clients = gateways.map((g) => new ResidentClient(`${g.url}/api`, `resident${i}`));
      for (const c of clients) await c.login('resident123');
      const houses = await clients[0].houses();
      const me = await clients[0].call<{ accountInfo: { personId: number } }>('GET', '/auth/current/user');
      const warnings = (await clients[0].call<{ id: number }[]>('GET', '/app/disaster/list')).map((w) => w.id);
      const votes = (
        await clients[0].call<{ id: number; type: number; deadline: string | null; options: { id: number }[] }[]>(
          'GET',
          '/app/announcement/list',
        )
      )
        .filter(
          (a) =>
            a.type === 3 && a.options.length > 0 && (!a.deadline || Date.parse(a.deadline) > Date.now() + 86_400_000),
        )
        .map((a) => ({ id: a.id, optionIds: a.options.map((x) => x.id) }));
      if (houses.length)
        residents.push({
          clients,
          houses,
          complaints: [],
          workOrders: [],
          personId: me.accountInfo.personId,
          warnings,
          votes,
          answering: false,
          joins: 0,
        });
    }
    // Units nobody is linked to, each joined at most once in the run (by one resident).
    const inviteCodes: { unitId: number; code: string }[] = [];
    {
      const db = new pg.Client({ connectionString: postgres.url });
      await db.connect();
      try {
        const rows = await db.query<{ id: number; code: string }>(
          `select id, invite_code as code from unit where invite_code is not null
             and id not in (select unit_id from person_house where unit_id is not null) order by id limit 500`,
        );
        for (const r of rows.rows) inviteCodes.push({ unitId: r.id, code: r.code });
      } finally {
        await db.end();
      }
    }
    const admin = new ResidentClient(`${gateways[0].url}/api`, 'admin');
    await admin.login('admin123');
    const adminToken = (admin as unknown as { token: string }).token;
    const tabs: (ConsoleTab | BrowserTab)[] = [];
    for (let i = 0; i < o.tabs; i++) tabs.push(new ConsoleTab(gateways[i % 2].url, adminToken, o.retryCatchUp ?? true));
    cleanups.push(() => Promise.all(tabs.map((t) => t.close())));
    if (o.browser) {
      tabs.push(await BrowserTab.open(gateways[o.tabs % 2].url));
      o.print(`chaos: the Chromium console is signed in on gateway${(o.tabs % 2) + 1}`);
    }
    await until(() => tabs.every((t) => t.ready()), 60_000);

    // Resident writes, each marked so that the database can be asked for it afterwards.
    const writes: Write[] = [];
    const unanswered: Record<string, number> = {};
    const refused: Record<string, number> = {};
    const warningsNotReleased: Record<string, number> = {};
    /** Resends stop here: never while faults come; SETTLE_MS after every process is back. */
    let giveUpAt = Number.POSITIVE_INFINITY;
    let writing = true;
    let seq = 0;
    const inFlight = new Set<Promise<void>>();
    const write = async (chosen: WriteKind) => {
      const r = pick(residents);
      const house = pick(r.houses);
      const client = () => pick(r.clients);
      const answer = chosen === 'disasterReply' || chosen === 'vote';
      const kind =
        (chosen === 'reply' && r.complaints.length === 0) ||
        (answer && r.answering) ||
        (chosen === 'disasterReply' && r.warnings.length === 0) ||
        (chosen === 'vote' && r.votes.length === 0) ||
        (chosen === 'join' && (r.joins >= JOINS_PER_RESIDENT || inviteCodes.length === 0))
          ? 'complaint'
          : chosen;
      let groupId = 0;
      if (kind === 'chat') {
        // A conversation of the resident's (a private chat with a staff member on the first).
        try {
          groupId = await chatOf(client());
        } catch {
          return;
        }
      }
      const w: Write = { kind, marker: `chaos-${o.seed}-${++seq}`, acked: false, sentAt: Date.now(), attempts: 1 };
      writes.push(w);
      if (kind === 'disasterReply' || kind === 'vote') r.answering = true;
      if (kind === 'chat') {
        w.groupId = groupId;
        w.reader = r.clients[0];
      }
      const where = { houseType: house.houseType, houseId: house.houseId };
      // Every write carries a client id and is resent with it until answered (the api stores it
      // once), as a resident's app does: through either gateway, after 0.5, 1, 2, 4, 4 … s, for as
      // long as faults come and until SETTLE_MS after every process is back.
      const clientId = randomUUID();
      const send = async <T>(path: string, body: object): Promise<T> => {
        for (let k = 0; ; k++) {
          try {
            return await client().call<T>('POST', path, { ...body, clientId });
          } catch (err) {
            if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429) throw err;
            if (Date.now() > giveUpAt) throw err;
            w.attempts += 1;
            await sleep(Math.min(4000, 500 * 2 ** k));
          }
        }
      };
      try {
        if (kind === 'complaint') {
          const saved = await send<{ complainId: number }>('/app/complain/save', {
            name: 'Chaos',
            note: w.marker,
            ...where,
          });
          w.id = saved.complainId;
          r.complaints.push(saved.complainId);
        } else if (kind === 'workOrder') {
          const saved = await send<{ eventOrderId: number }>('/app/eventOrder/save', {
            name: 'Chaos',
            note: w.marker,
            type: 1,
            ...where,
          });
          w.id = saved.eventOrderId;
          r.workOrders.push(saved.eventOrderId);
        } else if (kind === 'reply') {
          await send('/app/complain/reply', { id: pick(r.complaints), content: w.marker });
        } else if (kind === 'sos') {
          const saved = await send<{ sosHelpId: number }>('/app/sos/help', { ...where, position: w.marker });
          w.id = saved.sosHelpId;
        } else if (kind === 'disasterReply') {
          const warning = pick(r.warnings);
          w.pair = `${warning}:${r.personId}`;
          await send('/app/disaster/reply', { disasterWarnId: warning, reply: pick([1, 2, 3, 4, 6]), note: w.marker });
        } else if (kind === 'join') {
          // A request to join a unit by its invite code (SPEC: scan to join the building), as a tenant.
          const unit = inviteCodes.shift()!;
          r.joins += 1;
          w.join = { personId: r.personId, unitId: unit.unitId };
          const saved = await send<{ personHouseId: number }>('/app/personhouse/join', {
            inviteCode: unit.code,
            identity: 2,
          });
          w.id = saved.personHouseId;
        } else if (kind === 'vote') {
          const vote = pick(r.votes);
          w.pair = `${vote.id}:${r.personId}`;
          w.optionIds = [pick(vote.optionIds)];
          await send('/app/announcement/vote', { id: vote.id, optionIds: w.optionIds });
        } else {
          await send('/im/chatrecord/save', { groupId, content: w.marker, type: 1 });
        }
        w.acked = true;
        w.ackedAt = Date.now();
      } catch (err) {
        // Unanswered or refused: counted against the database at the end.
        const reason = `${w.kind} ${err instanceof ApiError ? err.status : 'no answer'}`;
        if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429) {
          w.refused = err.status;
          refused[reason] = (refused[reason] ?? 0) + 1;
          o.print(`chaos: ${w.kind} refused: ${err.status} ${err.message}`);
        } else {
          unanswered[reason] = (unanswered[reason] ?? 0) + 1;
          o.print(`chaos: ${w.kind} ${w.marker} unanswered after ${w.attempts} sends: ${(err as Error).message}`);
        }
      } finally {
        if (kind === 'disasterReply' || kind === 'vote') r.answering = false;
      }
    };
    const chatOf = async (client: ResidentClient): Promise<number> => {
      const list = async () =>
        (await client.call<{ list: { groupId: number }[] }>('POST', '/im/disgroup/list', { page: 1, limit: 20 })).list;
      let groups = await list();
      if (groups.length === 0) {
        const book = await client.call<{ sections: { people: { personId: number }[] }[] }>('GET', '/app/addressbook');
        const me = await client.call<{ accountInfo: { personId: number } }>('GET', '/auth/current/user');
        const other = pick(book.sections.flatMap((s) => s.people));
        await client.call('GET', `/im/chatrecord/check/chat/${me.accountInfo.personId}/${other.personId}`);
        groups = await list();
      }
      return pick(groups).groupId;
    };
    // Staff release disaster warnings now and then (each to every resident and office staff member).
    const warnings: { id: number; sentAt: number; ackedAt: number }[] = [];
    let warningsSent = 0;
    const releasers = [admin, new ResidentClient(`${gateways[1].url}/api`, 'admin')];
    await releasers[1].login('admin123');
    // To one block's residents (and the office staff): a release to the whole estate writes a row
    // per resident and took longer than the gateway waits on a loaded machine.
    const blocks = await admin.call<{ id: number }[]>('GET', '/disaster/blocks');
    const releaser = (async () => {
      if (!o.warningEveryMs) return;
      while (writing) {
        await sleep(o.warningEveryMs);
        if (!writing) break;
        const sentAt = Date.now();
        try {
          // Through either gateway in turn, resent for up to 60 s while a gateway or its api is
          // away (502, 503, 504, no connection), as the console's user would press again. A
          // release has no clientId: a resend may store a second warning, which is released too
          // (only the answered one is checked).
          const content = `chaos-${o.seed}-warning-${++warningsSent}`;
          const first = warningsSent % 2;
          let saved: { id: number } | undefined;
          for (let k = 0; !saved; k++)
            try {
              saved = await releasers[(first + k) % 2].call<{ id: number }>('POST', '/disaster/warn/save', {
                type: 5,
                content,
                ...(blocks.length ? { blockIds: [blocks[0].id] } : {}),
              });
            } catch (err) {
              const away = !(err instanceof ApiError) || [502, 503, 504].includes(err.status);
              if (!away || Date.now() - sentAt > 60_000) throw err;
              await sleep(1000);
            }
          warnings.push({ id: saved!.id, sentAt, ackedAt: Date.now() });
        } catch (err) {
          // Not released (a fault on the way): nobody has to see it.
          const reason = `warning ${err instanceof ApiError ? err.status : 'no answer'}`;
          warningsNotReleased[reason] = (warningsNotReleased[reason] ?? 0) + 1;
          if (warningsSent <= 3 || (err instanceof ApiError && err.status < 500))
            o.print(`chaos: ${reason}: ${(err as Error).message}`);
        }
      }
    })();
    const writer = (async () => {
      const every = 1000 / o.writesPerSecond;
      while (writing) {
        if (inFlight.size < 20) {
          const p = write(pick(WRITE_KINDS)).finally(() => inFlight.delete(p));
          inFlight.add(p);
        }
        await sleep(every);
      }
    })();

    // Faults, at random from the seed, at most `concurrent` at once and one per target.
    const byFault: Partial<Record<FaultKind, FaultFigures>> = {};
    /** Every fault with its target and when it started and ended (for the causes of slow alarms). */
    const faultLog: { kind: FaultKind; target: string; start: number; end: number }[] = [];
    const faultFile = createWriteStream(join(logDir, 'faults.jsonl'));
    cleanups.push(() => new Promise((r) => faultFile.end(r)));
    const busy = new Set<string>();
    const active = new Set<Promise<void>>();
    let faultsStarted = 0;
    // Everything before the first await runs at once: `faultsStarted` counts the fault as injected.
    const inject = async (kind: FaultKind) => {
      const hold = 300 + Math.floor(random() * 2500);
      let target = '';
      const t0 = Date.now();
      let ok = true;
      const recover = async (tier: Tier) => (ok = await until(() => answering(tier.url), 120_000));
      const failed = (err: unknown) => {
        ok = false;
        o.print(`chaos: ${target}: ${(err as Error).message.slice(0, 500)}`);
      };
      switch (kind) {
        case 'killApi':
        case 'killGateway':
        case 'freezeApi':
        case 'freezeGateway': {
          const list = kind.endsWith('Api') ? apis : gateways;
          const tier = pick(list);
          target = tier.name;
          if (busy.has(target)) return;
          busy.add(target);
          faultsStarted += 1;
          if (kind.startsWith('kill')) {
            await tier.kill();
            await sleep(hold);
            await tier.start().catch(failed);
          } else {
            tier.signal('SIGSTOP');
            await sleep(hold);
            tier.signal('SIGCONT');
            await recover(tier);
          }
          break;
        }
        case 'restartPostgres':
        case 'redisGone': {
          const server: Server = kind === 'restartPostgres' ? postgres : redis;
          target = kind;
          if (busy.has(target)) return;
          busy.add(target);
          faultsStarted += 1;
          await server.stop(kind === 'restartPostgres' ? 'SIGINT' : 'SIGKILL');
          await sleep(hold);
          await server.start().catch(failed);
          break;
        }
        case 'cutApiLink':
        case 'cutPostgresLink':
        case 'cutRedisLink':
        case 'slowApiLink': {
          const link = kind === 'cutPostgresLink' ? pgLink : kind === 'cutRedisLink' ? redisLink : pick(apiLinks);
          target = `link:${kind === 'cutPostgresLink' ? 'pg' : kind === 'cutRedisLink' ? 'redis' : apiLinks.indexOf(link)}`;
          if (busy.has(target)) return;
          busy.add(target);
          faultsStarted += 1;
          if (kind === 'slowApiLink') {
            link.delay(100 + Math.floor(random() * 400));
            await sleep(hold);
            link.delay(0);
          } else link.cut();
          break;
        }
        case 'dropTab': {
          const tab = pick(tabs);
          target = `tab:${tabs.indexOf(tab)}`;
          if (busy.has(target)) return;
          busy.add(target);
          faultsStarted += 1;
          // A network blip; the tab reconnects on its own.
          await tab.drop(hold);
          break;
        }
      }
      busy.delete(target);
      faultLog.push({ kind, target, start: t0, end: Date.now() });
      faultFile.write(`${JSON.stringify({ kind, target, start: t0, end: Date.now(), ok })}\n`);
      if (!ok) o.print(`chaos: ${target} did not recover from ${kind}`);
      const total = (byFault[kind] ??= { injected: 0, failedToRecover: 0, worstRecoveryMs: 0 });
      total.injected += 1;
      if (!ok) total.failedToRecover += 1;
      total.worstRecoveryMs = Math.max(total.worstRecoveryMs, Date.now() - t0);
    };
    // Kinds are dealt from a bag holding each kind once, shuffled from the seed and refilled when
    // empty: every kind comes as often as every other (a run of 11 × n faults has n of each), so a
    // short run covers them all; a kind whose target was busy goes to the end of the bag.
    let bag: FaultKind[] = [];
    const nextKind = (): FaultKind => {
      if (bag.length === 0)
        bag = [...FAULT_KINDS]
          .map((k) => ({ k, r: random() }))
          .sort((a, b) => a.r - b.r)
          .map((x) => x.k);
      return bag.shift()!;
    };
    let injected = 0;
    while (injected < o.faults) {
      await sleep(o.faultEveryMs);
      if (active.size >= o.concurrent) continue;
      const before = faultsStarted;
      const kind = nextKind();
      const p = inject(kind).finally(() => active.delete(p));
      active.add(p);
      // Its target was busy with another fault: the kind is dealt again after the others.
      if (faultsStarted === before) {
        bag.push(kind);
        continue;
      }
      injected += 1;
      if (injected % 50 === 0) o.print(`chaos: ${injected} faults injected`);
    }
    await Promise.all(active);
    writing = false;
    await writer;
    await releaser;
    // Every process back and healthy; writes still unanswered are resent for SETTLE_MS more.
    const processesDown: string[] = [];
    for (const t of [...apis, ...gateways])
      if (!(await until(() => healthy(t.url), 60_000))) processesDown.push(t.name);
    if (!postgres.alive()) processesDown.push('postgres');
    if (!redis.alive()) processesDown.push('redis');
    giveUpAt = Date.now() + SETTLE_MS;
    await Promise.all(inFlight);
    o.print('chaos: faults done, writes settled; checking');

    // Writes against the database.
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    cleanups.push(() => db.end());
    const stored = new Map<string, number>();
    const count = async (q: string) => {
      for (const row of (await db.query<{ m: string; n: string }>(q)).rows) stored.set(row.m, Number(row.n));
    };
    const like = `'chaos-${o.seed}-%'`;
    await count(`select note as m, count(*) as n from complain where note like ${like} group by note`);
    await count(`select note as m, count(*) as n from event_order where note like ${like} group by note`);
    await count(`select content as m, count(*) as n from complain_reply where content like ${like} group by content`);
    await count(`select position as m, count(*) as n from sos_help where position like ${like} group by position`);
    await count(`select content as m, count(*) as n from im_chat_record where content like ${like} group by content`);
    // Joins: the requests of each (person, unit) the run sent, keyed by the write's marker.
    for (const w of writes)
      if (w.join) {
        const rows = await db.query<{ n: string }>(
          'select count(*) as n from person_house where person_id = $1 and unit_id = $2',
          [w.join.personId, w.join.unitId],
        );
        stored.set(w.marker, Number(rows.rows[0].n));
      }
    // Answers replace the person's earlier one: what the database holds per pair.
    const replyNote = new Map<string, string | null>();
    for (const row of (
      await db.query<{ w: number; p: number; note: string | null }>(
        `select disaster_warn_id as w, person_id as p, note from disaster_warn_person where note like ${like}`,
      )
    ).rows)
      replyNote.set(`${row.w}:${row.p}`, row.note);
    const voteRows = new Map<string, number[]>();
    const votePairs = [...new Set(writes.filter((w) => w.kind === 'vote' && w.pair).map((w) => w.pair!))];
    for (const pair of votePairs) {
      const [a, p] = pair.split(':').map(Number);
      const rows = await db.query<{ o: number }>(
        'select option_id as o from announcement_vote where announcement_id = $1 and person_id = $2 order by option_id',
        [a, p],
      );
      voteRows.set(
        pair,
        rows.rows.map((r) => r.o),
      );
    }
    /** An answer is in the database when it is the pair's last acknowledged one, or a later unanswered one, is. */
    const answerStored = (w: Write): number => {
      if (w.kind === 'disasterReply') return replyNote.get(w.pair!) === w.marker ? 1 : 0;
      const held = voteRows.get(w.pair!) ?? [];
      if (held.length > 1 && new Set(held).size < held.length) return 2;
      return JSON.stringify(held) === JSON.stringify(w.optionIds) ? 1 : 0;
    };
    const lastAnswer = new Map<string, Write>();
    for (const w of writes) if (w.pair && w.acked) lastAnswer.set(w.pair, w);
    const laterAnswers = (w: Write) => writes.filter((x) => x.pair === w.pair && x.sentAt >= w.sentAt);
    const byKind: ChaosReport['byKind'] = {};
    let lost = 0;
    let duplicates = 0;
    let unansweredStored = 0;
    let unansweredNotStored = 0;
    let refusedStored = 0;
    for (const w of writes) {
      const k = (byKind[w.kind] ??= { acked: 0, lost: 0, duplicates: 0 });
      if (w.pair) {
        // Only the last answer of a pair must be held (or one sent after it that got no answer).
        if (!w.acked || lastAnswer.get(w.pair) !== w) {
          if (w.acked) k.acked += 1;
          continue;
        }
        k.acked += 1;
        const held = laterAnswers(w).map(answerStored);
        if (held.includes(2)) {
          duplicates += 1;
          k.duplicates += 1;
        } else if (!held.includes(1)) {
          lost += 1;
          k.lost += 1;
          o.print(`chaos: ${w.kind} ${w.pair} ${w.marker} not what the database holds`);
        }
        continue;
      }
      const n = stored.get(w.marker) ?? 0;
      if (n > 1) {
        duplicates += 1;
        k.duplicates += 1;
      }
      if (w.acked) {
        k.acked += 1;
        if (n === 0) {
          lost += 1;
          k.lost += 1;
        }
      } else if (w.refused !== undefined) {
        // Answered with a refusal: nothing may be stored.
        if (n > 0) {
          refusedStored += 1;
          o.print(`chaos: ${w.kind} ${w.marker} refused ${w.refused} but stored`);
        }
      } else if (n > 0) unansweredStored += 1;
      else unansweredNotStored += 1;
    }

    // Every SOS call stored and every warning released reached every tab (live, or on catch-up).
    const sosIds = writes.filter((w) => w.kind === 'sos' && w.acked && w.id !== undefined);
    const alarms = [
      ...sosIds.map((w) => ({ key: `sos:${w.id!}`, id: w.id!, sos: true, sentAt: w.sentAt, ackedAt: w.ackedAt! })),
      ...warnings.map((w) => ({ key: `warn:${w.id}`, id: w.id, sos: false, sentAt: w.sentAt, ackedAt: w.ackedAt })),
    ];
    const seenAt = (t: ConsoleTab | BrowserTab, a: (typeof alarms)[number]) =>
      (a.sos ? t.sosSeen : t.warnSeen).get(a.id);
    let alarmsMissed = 0;
    let warningsMissed = 0;
    let worstAlarmDelayMs = 0;
    const alarmDelays: ChaosReport['alarmDelays'] = {};
    const slowAlarmCauses: ChaosReport['slowAlarmCauses'] = {};
    await until(() => alarms.every((a) => tabs.every((t) => seenAt(t, a) !== undefined)), 30_000);
    const slowest: { key: string; tab: number; at: number; ackedAt: number; how: AlarmHow }[] = [];
    for (const a of alarms)
      for (const t of tabs) {
        const i = tabs.indexOf(t);
        const at = seenAt(t, a);
        if (at === undefined) {
          if (a.sos) alarmsMissed += 1;
          else warningsMissed += 1;
          o.print(`chaos: tab ${i} (${t.gatewayUrl}) never saw ${a.key}`);
          continue;
        }
        worstAlarmDelayMs = Math.max(worstAlarmDelayMs, at - a.sentAt);
        const how = t.seenHow.get(a.key) ?? 'live';
        const d = (alarmDelays[how] ??= { n: 0, worstMs: 0, worstAfterAckMs: 0 });
        d.n += 1;
        d.worstMs = Math.max(d.worstMs, at - a.sentAt);
        d.worstAfterAckMs = Math.max(d.worstAfterAckMs, at - a.ackedAt);
        if (at - a.ackedAt > 30_000) slowest.push({ key: a.key, tab: i, at, ackedAt: a.ackedAt, how });
        if (at - a.ackedAt > 5000) {
          // The faults on this tab's path (its gateway, that gateway's api and link, Redis,
          // PostgreSQL, the tab's own socket) between the write's answer and the tab knowing.
          const g = i % 2;
          const path = new Set([`gateway${g + 1}`, `api${g + 1}`, `link:${g}`, `tab:${i}`, 'redisGone', 'link:redis']);
          const on = faultLog.filter((f) => path.has(f.target) && f.start <= at && f.end >= a.ackedAt - 1000);
          const kinds = [...new Set(on.map((f) => f.kind))].sort();
          const cause = `${how}: ${kinds.join('+') || 'no fault on its path'}`;
          const c = (slowAlarmCauses[cause] ??= { n: 0, worstAfterAckMs: 0 });
          c.n += 1;
          c.worstAfterAckMs = Math.max(c.worstAfterAckMs, at - a.ackedAt);
        }
      }

    // The slowest alarms, with what their tab went through meanwhile (to find why).
    for (const s of slowest.sort((x, y) => y.at - y.ackedAt - (x.at - x.ackedAt)).slice(0, 3)) {
      const t = tabs[s.tab];
      const rel = (ms: number) => `${((ms - s.ackedAt) / 1000).toFixed(1)}s`;
      const trace = t.trace
        .filter((e) => e.at >= s.ackedAt - 5000 && e.at <= s.at)
        .map((e) => `${rel(e.at)} ${e.what}`);
      const g = s.tab % 2;
      const faults = faultLog
        .filter((f) => f.start <= s.at && f.end >= s.ackedAt - 5000)
        .map((f) => `${f.kind} ${f.target} ${rel(f.start)}..${rel(f.end)}`);
      o.print(
        `chaos: slow alarm ${s.key} on tab ${s.tab} (gateway${g + 1}${t instanceof BrowserTab ? ', Chromium' : ''}) ${s.how} ${rel(s.at)} after the answer; tab: ${trace.slice(0, 30).join(' | ')}${trace.length > 30 ? ` | … ${trace.length - 30} more` : ''}; faults: ${faults.join(' | ')}`,
      );
    }

    // Chat events: never the same message twice, and in seq order within a conversation.
    let chatDuplicates = 0;
    let chatOutOfOrder = 0;
    for (const t of tabs) {
      const seen = new Set<string>();
      const last = new Map<number, number>();
      for (const { e } of t.events) {
        const c = e as unknown as { topic: string; groupId?: number; seq?: number };
        if (c.topic !== 'chat' || c.groupId === undefined || c.seq === undefined) continue;
        const key = `${c.groupId}:${c.seq}`;
        if (seen.has(key)) chatDuplicates += 1;
        seen.add(key);
        if ((last.get(c.groupId) ?? 0) > c.seq) chatOutOfOrder += 1;
        last.set(c.groupId, Math.max(last.get(c.groupId) ?? 0, c.seq));
      }
    }

    // Every conversation as a member reads it back: each acknowledged message once, in seq order.
    let chatMissing = 0;
    const conversations = new Map<number, { reader: ResidentClient; markers: string[] }>();
    for (const w of writes)
      if (w.kind === 'chat' && w.acked && w.groupId !== undefined && w.reader) {
        const c = conversations.get(w.groupId) ?? { reader: w.reader, markers: [] };
        c.markers.push(w.marker);
        conversations.set(w.groupId, c);
      }
    for (const [groupId, c] of conversations) {
      const history: { seq: number; content: string }[] = [];
      try {
        for (let page = 1; page < 1000; page++) {
          const got = await c.reader.call<{ list: { seq: number; content: string }[] }>('POST', '/im/chatrecord/list', {
            groupId,
            page,
            limit: 100,
            order: 'asc',
          });
          history.push(...got.list);
          if (got.list.length < 100) break;
        }
      } catch (err) {
        o.print(`chaos: conversation ${groupId} not readable: ${(err as Error).message}`);
      }
      for (let i = 1; i < history.length; i++) if (history[i].seq <= history[i - 1].seq) chatOutOfOrder += 1;
      for (const marker of c.markers) {
        const n = history.filter((h) => h.content === marker).length;
        if (n === 0) chatMissing += 1;
        if (n > 1) chatDuplicates += n - 1;
      }
    }

    // Every tab's counters equal what the api reads from the database for the person.
    const truth = async () => {
      const c = await admin
        .call<Record<string, unknown>>('GET', '/realtime/counters')
        .catch(() => ({ unavailable: true }) as Record<string, unknown>);
      delete c.pushSeq;
      return JSON.stringify(c);
    };
    const heldOf = (t: ConsoleTab | BrowserTab) => {
      const { version: _v, ...rest } = t.held;
      return JSON.stringify(rest);
    };
    let countersWrong = 0;
    await until(async () => {
      const expected = await truth().catch(() => '');
      return tabs.every((t) => heldOf(t) === expected);
    }, 30_000);
    const expected = await truth();
    for (const t of tabs) if (heldOf(t) !== expected) countersWrong += 1;
    for (const t of tabs)
      if (heldOf(t) !== expected)
        o.print(
          `chaos: tab ${tabs.indexOf(t)} connected ${t.connected()}, ${t.snapshots} snapshots, ${t.events.length} events, closed: ${t.disconnects.slice(-8).join('; ')}`,
        );
    if (countersWrong)
      o.print(`chaos: counters differ: api ${expected}; tab ${tabs.map(heldOf).find((h) => h !== expected)}`);

    return {
      seed: o.seed,
      logDir,
      faults: injected,
      durationS: Math.round((Date.now() - startedAt) / 1000),
      writes: writes.length,
      acknowledged: writes.filter((w) => w.acked).length,
      lost,
      duplicates,
      unansweredStored,
      unansweredNotStored,
      unanswered,
      refused,
      refusedStored,
      answeredAfter90s: writes.filter((w) => w.acked && w.ackedAt! - w.sentAt > 90_000).length,
      slowestAnswerMs: Math.max(0, ...writes.filter((w) => w.acked).map((w) => w.ackedAt! - w.sentAt)),
      warningsNotReleased,
      countersWrong,
      alarmsMissed,
      worstAlarmDelayMs,
      warnings: warnings.length,
      warningsMissed,
      alarmDelays,
      slowAlarmCauses,
      chatDuplicates,
      chatOutOfOrder,
      chatMissing,
      processesDown,
      crashes: [...apis, ...gateways].flatMap((t) => t.crashes.map((c) => `${t.name} ${c}`)),
      failedStarts: [...apis, ...gateways].reduce((n, t) => n + t.failedStarts, 0),
      byKind,
      byFault,
    };
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
