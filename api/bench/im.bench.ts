// Instant messaging's api budgets (issue 31), run by `npm run bench im`, on PostgreSQL (a fresh
// schema; the local server unless BENCH_DATABASE_URL / TEST_DATABASE_URL says otherwise):
//   1. a person with BENCH_CONVERSATIONS (2,000) conversations — 1,500 private chats with a
//      record each and 500 groups of 6 — reads the conversation list as the console does
//      (page 1, limit 1000): p95 under 25 ms, through HTTP and as the repository's SQL alone;
//   2. BENCH_SENDERS (50) members send into one group at once, BENCH_ROUNDS rounds: every seq
//      from the first to the last exactly once (gapless, no duplicate), and a resend of each with
//      its client id stores nothing.
// The list's statements are also timed by EXPLAIN (ANALYZE, BUFFERS) (listExplainMs: the database's
// own time); BENCH_EXPLAIN=1 prints the first plans on stderr. BENCH_OTHER_GROUPS adds groups of
// the estate the person is not in (98000: a large estate of 100,000 groups, the person in 2,000).
// Prints exactly one JSON line on stdout; progress goes to stderr.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { signIn, startTestApi } from '../test/kit';
import { freePort, spawnApi, type ApiProcess } from '../test/kit/api-process';
import { listConversationsBefore } from '../test/kit/conversation-list-before';
import { stringifyEnvelope } from '../src/http/json-text';
import {
  conversationListPlan,
  conversationListSql,
  groupsByLookup,
  listConversations,
  unreadTotalSql,
  unreadTotalValues,
} from '../src/modules/im/chat.repository';
import { benchLog, cpuMs, percentile, round, timeRuns } from './kit';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 2000);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
/** Groups of the estate the person is not in (a large estate: 98,000 makes 100,000 groups, the person in 2,000). */
const OTHER_GROUPS = Number(process.env.BENCH_OTHER_GROUPS ?? 0);
const log = benchLog('im');
/**
 * The list over HTTP from the api in its own process (issue 31, eighth pass): BENCH_PORT fixes the
 * ports (the api there, a "before" api on the next, the gateway on the two after); else free ones.
 * BENCH_BEFORE_API_MAIN: another checkout's api/src/main.ts, timed in turns with this one on the
 * same database. BENCH_GATEWAY=off: no gateway phase.
 */
const BENCH_PORT = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : null;
const BEFORE_API_MAIN = process.env.BENCH_BEFORE_API_MAIN;
const WITH_GATEWAY = process.env.BENCH_GATEWAY !== 'off';
/** BENCH_API_NODE_ARGS: node options for the api processes it starts (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"). */
const API_NODE_ARGS = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** BENCH_BEFORE_API_NODE_ARGS: the same for the "before" api (default: BENCH_API_NODE_ARGS), to compare node options. */
const BEFORE_API_NODE_ARGS = (process.env.BENCH_BEFORE_API_NODE_ARGS ?? process.env.BENCH_API_NODE_ARGS ?? '')
  .split(' ')
  .filter(Boolean);
const root = resolve(import.meta.dirname, '../..');
/** p50 and p95 of samples in any order. */
function spreadOf(values: number[]): { p50: number; p95: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)) };
}
const portAt = async (i: number) => (BENCH_PORT === null ? freePort() : BENCH_PORT + i);

/** One timed list call as a browser makes it. */
interface BrowserCall {
  /** Request sent → the answer's last byte read. */
  lastByteMs: number;
  /** … → the body decoded (Content-Encoding) and parsed, as a browser's fetch().json(). */
  parsedMs: number;
  bytes: number;
  encoding: string;
  total: number;
}

/**
 * POST /im/disgroup/list (page 1, limit 1000) on a kept-alive connection with the headers a
 * browser sends (Accept-Encoding: gzip, deflate, br), the whole body read, decoded and parsed.
 */
function browserCall(agent: Agent, base: URL, token: string): Promise<BrowserCall> {
  const body = JSON.stringify({ page: 1, limit: 1000 });
  return new Promise((resolveCall, reject) => {
    const started = performance.now();
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method: 'POST',
        path: `${base.pathname.replace(/\/$/, '')}/im/disgroup/list`,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json, text/plain, */*',
          'accept-encoding': 'gzip, deflate, br',
          'accept-language': 'en',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.once('error', reject);
        res.once('end', () => {
          const lastByteMs = performance.now() - started;
          const raw = Buffer.concat(chunks);
          const encoding = String(res.headers['content-encoding'] ?? 'identity');
          const decoded =
            encoding === 'br'
              ? brotliDecompressSync(raw)
              : encoding === 'gzip'
                ? gunzipSync(raw)
                : encoding === 'deflate'
                  ? inflateSync(raw)
                  : raw;
          const answer = JSON.parse(decoded.toString('utf8')) as { data?: { total?: number } };
          if (res.statusCode !== 200) return reject(new Error(`list answered ${res.statusCode}`));
          resolveCall({
            lastByteMs,
            parsedMs: performance.now() - started,
            bytes: raw.length,
            encoding,
            total: Number(answer.data?.total),
          });
        });
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/** The gateway in its own process in front of `apiUrl` (no Redis), ready. */
async function startGateway(apiUrl: string): Promise<{ url: URL; child: ChildProcess; stop(): Promise<void> }> {
  const port = await portAt(2);
  const metrics = await portAt(3);
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      METRICS_PORT: String(metrics),
      API_URL: apiUrl,
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    const up = await fetch(`http://127.0.0.1:${metrics}/metrics`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (child.exitCode !== null || i > 1200) throw new Error('the gateway did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: new URL(`http://127.0.0.1:${port}/api/`),
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
    },
  };
}

if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const api = await startTestApi('postgres');
try {
  const admin = await signIn(api, 'admin');
  const [tenant] = (
    (await api.db.execute(
      sql`select company_id as "companyId", housing_estate_id as "housingEstateId" from person where id = ${admin.personId}`,
    )) as unknown as { rows: { companyId: number; housingEstateId: number }[] }
  ).rows;
  const { companyId: c, housingEstateId: e } = tenant;
  const privates = Math.round(CONVERSATIONS * 0.75);
  const groups = CONVERSATIONS - privates;
  log(`seeding ${privates} private chats and ${groups} groups for the admin, and ${SENDERS} senders`);
  // People to talk to (residents), the chats, their members and one record each.
  await api.db.execute(sql`
    with p as (
      insert into person (company_id, housing_estate_id, name) select ${c}, ${e}, 'Bench person ' || g from generate_series(1, ${privates}) g
      returning id),
    g as (
      insert into im_group (company_id, housing_estate_id, group_type, name, owner_person_id, peer_person_id, last_seq, message_count,
        member_count, updated_at, last_type, last_content, last_from_person_id, last_at)
      select ${c}, ${e}, 1, null, p.id, ${admin.personId}, 1, 1, 2, now() - (p.id % 5000) * interval '1 minute', 1, 'Hello from ' || p.id, p.id, now()
      from p returning id, owner_person_id),
    m as (
      insert into im_group_member (group_id, person_id, read_seq, read_count)
      select id, owner_person_id, 1, 1 from g union all select id, ${admin.personId}, 0, 0 from g returning group_id)
    insert into im_chat_record (company_id, housing_estate_id, group_id, seq, from_person_id, type, content)
    select ${c}, ${e}, g.id, 1, g.owner_person_id, 1, 'Hello from ' || g.owner_person_id from g`);
  await api.db.execute(sql`
    with g as (
      insert into im_group (company_id, housing_estate_id, group_type, name, owner_person_id, last_seq, message_count, member_count,
        updated_at, last_type, last_content, last_from_person_id, last_at)
      select ${c}, ${e}, 2, 'Bench group ' || s, ${admin.personId}, 1, 1, 6, now() - s * interval '1 minute', 1, 'Group notice',
        ${admin.personId}, now()
      from generate_series(1, ${groups}) s
      returning id),
    m as (
      insert into im_group_member (group_id, person_id, read_seq, read_count)
      select g.id, p.id, 1, 1 from g cross join (select id from person where housing_estate_id = ${e} and name like 'Bench person %' order by id limit 5) p
      union all select id, ${admin.personId}, 1, 1 from g returning group_id)
    insert into im_chat_record (company_id, housing_estate_id, group_id, seq, from_person_id, type, content)
    select ${c}, ${e}, g.id, 1, ${admin.personId}, 1, 'Group notice' from g`);
  if (OTHER_GROUPS > 0) {
    log(`seeding ${OTHER_GROUPS} groups of the estate the admin is not in`);
    await api.db.execute(sql`
      with g as (
        insert into im_group (company_id, housing_estate_id, group_type, name, owner_person_id, last_seq, message_count,
          member_count, updated_at, last_type, last_content, last_from_person_id, last_at)
        select ${c}, ${e}, 2, 'Other group ' || s, p.id, 1, 1, 2, now() - s * interval '1 second', 1, 'Other notice', p.id, now()
        from generate_series(1, ${OTHER_GROUPS}) s
          join (select id, row_number() over (order by id) - 1 as k from person where housing_estate_id = ${e}
                and name like 'Bench person %') p on p.k = s % ${privates}
        returning id, owner_person_id)
      insert into im_group_member (group_id, person_id, read_seq, read_count)
      select id, owner_person_id, 1, 1 from g`);
  }
  await api.db.execute(sql`analyze`);

  log('timing the conversation list');
  const http = await timeRuns(
    async () => {
      const res = await admin.post('/im/disgroup/list', { page: 1, limit: 1000 });
      if (res.status !== 200) throw new Error(`list answered ${res.status}`);
      return { total: res.body.data.total as number };
    },
    { runs: RUNS },
  );
  // Eighth pass: the list over HTTP from the api in its OWN process (the bench's decoding no longer
  // competes with the api's loop), as a browser reads it; through the gateway too; with a "before"
  // api (BENCH_BEFORE_API_MAIN) in turns. The api's CPU per call from /proc.
  log('timing the conversation list over HTTP, the api in its own process');
  const apiEnv = (port: number) => ({
    DATABASE_URL: api.databaseUrl,
    API_PORT: String(port),
    API_METRICS_PORT: 'off',
    // The answer-schema check is for tests: never part of a call's cost here.
    API_CHECK_ANSWERS: '0',
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
  });
  const owns: { name: 'after' | 'before'; api: ApiProcess }[] = [
    { name: 'after', api: await spawnApi(apiEnv(await portAt(0)), undefined, API_NODE_ARGS) },
  ];
  if (BEFORE_API_MAIN)
    owns.push({ name: 'before', api: await spawnApi(apiEnv(await portAt(1)), BEFORE_API_MAIN, BEFORE_API_NODE_ARGS) });
  const gateway = WITH_GATEWAY ? await startGateway(owns[0].api.url) : null;
  const own: Record<
    'after' | 'before' | 'gateway',
    { ms: number[]; parsed: number[]; cpu: number; gwCpu: number; last?: BrowserCall }
  > = {
    after: { ms: [], parsed: [], cpu: 0, gwCpu: 0 },
    before: { ms: [], parsed: [], cpu: 0, gwCpu: 0 },
    gateway: { ms: [], parsed: [], cpu: 0, gwCpu: 0 },
  };
  try {
    for (const o of owns) await o.api.healthy();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const targets = [
      ...owns.map((o) => ({ name: o.name, base: new URL(`${o.api.url}/`), pid: o.api.child.pid! })),
      ...(gateway ? [{ name: 'gateway' as const, base: gateway.url, pid: owns[0].api.child.pid! }] : []),
    ];
    for (const t of targets) for (let i = 0; i < 5; i++) await browserCall(agent, t.base, admin.token);
    for (let i = 0; i < RUNS; i++)
      for (const t of targets) {
        const cpu = cpuMs(t.pid);
        const gwCpu = gateway ? cpuMs(gateway.child.pid!) : 0;
        const call = await browserCall(agent, t.base, admin.token);
        own[t.name].cpu += cpuMs(t.pid) - cpu;
        if (gateway) own[t.name].gwCpu += cpuMs(gateway.child.pid!) - gwCpu;
        own[t.name].ms.push(call.lastByteMs);
        own[t.name].parsed.push(call.parsedMs);
        own[t.name].last = call;
      }
    agent.destroy();
  } finally {
    await gateway?.stop();
    for (const o of owns) await o.api.stop();
  }
  const ownFigures = (name: keyof typeof own) =>
    own[name].last
      ? {
          ...spreadOf(own[name].ms),
          parsed: spreadOf(own[name].parsed),
          apiCpuPerCallMs: round(own[name].cpu / own[name].ms.length),
          ...(name === 'gateway' && { gatewayCpuPerCallMs: round(own[name].gwCpu / own[name].ms.length) }),
          bytes: own[name].last.bytes,
          encoding: own[name].last.encoding,
        }
      : null;
  const repository = await timeRuns(
    () => listConversations(api.db, tenant, admin.personId, {}, 1000, 0).then((r) => ({ total: r.total })),
    { runs: RUNS },
  );
  // The plan chosen by the person's share of the groups (now) against the join always (before),
  // one run of each in turn, so both meet the same load.
  const chosen = conversationListPlan.lookupBelowShare;
  const turns: Record<'joinAlways' | 'byShare', number[]> = { joinAlways: [], byShare: [] };
  for (let i = 0; i < RUNS; i++)
    for (const [form, share] of [
      ['joinAlways', null],
      ['byShare', chosen],
    ] as const) {
      conversationListPlan.lookupBelowShare = share;
      const t = performance.now();
      await listConversations(api.db, tenant, admin.personId, {}, 1000, 0);
      turns[form].push(performance.now() - t);
    }
  conversationListPlan.lookupBelowShare = chosen;
  // Issue 31's seventh pass: the list as it was (19 typed columns, built per call) against now (a
  // prepared statement, the row's numbers packed in one text), one of each in turn: the SQL and mapping
  // alone, and with the answer's envelope written as the route writes it (stringifyEnvelope).
  const listForms = {
    before: () => listConversationsBefore(api.db, tenant, admin.personId, {}, 1000, 0),
    after: () => listConversations(api.db, tenant, admin.personId, {}, 1000, 0),
  };
  const formTurns: Record<keyof typeof listForms, { sql: number[]; answer: number[]; cpu: number[] }> = {
    before: { sql: [], answer: [], cpu: [] },
    after: { sql: [], answer: [], cpu: [] },
  };
  for (let i = 0; i < RUNS; i++)
    for (const form of ['before', 'after'] as const) {
      let t = performance.now();
      await listForms[form]();
      formTurns[form].sql.push(performance.now() - t);
      t = performance.now();
      const cpu = process.cpuUsage();
      const { rows, total } = await listForms[form]();
      stringifyEnvelope({ code: 200, data: { list: rows, total, page: 1, limit: 1000, totalPage: 2 } });
      formTurns[form].answer.push(performance.now() - t);
      // This process's CPU for it (the api's part; the bench's process is the api's).
      const used = process.cpuUsage(cpu);
      formTurns[form].cpu.push((used.user + used.system) / 1000);
    }
  const spread = spreadOf;
  const unread = await timeRuns(() => admin.post('/im/chatrecord/query/total/unread'), { runs: RUNS });
  // The sidebar's unread total: the plan chosen by the person's share (now) against the join with
  // every group (before), as SQL and as the database's own time, in turns.
  const unreadValues = unreadTotalValues(admin.personId, tenant);
  const filled = (build: typeof unreadTotalSql) => build((name) => sql`${unreadValues[name]}`);
  const unreadJoinSql = filled(
    (p) => sql`select sum(g.message_count - m.read_count) as n
      from im_group_member m join im_group g on g.id = m.group_id
      where m.person_id = ${p('personId')} and m.quit_at is null and not g.dismissed
        and g.company_id = ${p('companyId')} and g.housing_estate_id = ${p('housingEstateId')}`,
  );
  const unreadForms = { join: unreadJoinSql, byShare: filled(unreadTotalSql) };
  const unreadTurns: Record<keyof typeof unreadForms, { sql: number[]; explain: number[] }> = {
    join: { sql: [], explain: [] },
    byShare: { sql: [], explain: [] },
  };
  const unreadAnswers = new Set<string>();
  for (let i = 0; i < RUNS; i++)
    for (const form of ['join', 'byShare'] as const) {
      const t = performance.now();
      const answer = (await api.db.execute(unreadForms[form])) as unknown as { rows: { n: unknown }[] };
      unreadTurns[form].sql.push(performance.now() - t);
      unreadAnswers.add(String(answer.rows[0]?.n));
      if (i % 10 === 0) {
        const plan = (await api.db.execute(sql`explain (analyze) ${unreadForms[form]}`)) as unknown as {
          rows: { 'QUERY PLAN': string }[];
        };
        if (i === 0 && process.env.BENCH_EXPLAIN === '1')
          log(`unread plan (${form}):\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
        const last = plan.rows.at(-1)?.['QUERY PLAN'] ?? '';
        unreadTurns[form].explain.push(Number(/Execution Time: ([\d.]+)/.exec(last)?.[1] ?? NaN));
      }
    }
  if (unreadAnswers.size !== 1) throw new Error(`the unread total's forms disagree: ${[...unreadAnswers].join(', ')}`);
  // The database's own time for the list's statement (EXPLAIN ANALYZE, BUFFERS), less sensitive
  // to a loaded machine than the round trips above: the median of a few plans, per form.
  let printPlans = process.env.BENCH_EXPLAIN === '1';
  const explainMs = async (byLookup: boolean) => {
    const result = (await api.db.execute(
      sql`explain (analyze, buffers) ${conversationListSql(tenant, admin.personId, {}, 1000, 0, byLookup)}`,
    )) as unknown as { rows: { 'QUERY PLAN': string }[] };
    const plan = result.rows.map((r) => r['QUERY PLAN']);
    if (printPlans) log(`plan:\n${plan.join('\n')}`);
    return Number(/Execution Time: ([\d.]+)/.exec(plan.at(-1) ?? '')?.[1] ?? NaN);
  };
  const planMs: number[] = [];
  const joinPlanMs: number[] = [];
  for (let i = 0; i < 9; i++) {
    joinPlanMs.push(await explainMs(false));
    conversationListPlan.lookupBelowShare = chosen;
    planMs.push(await explainMs(await groupsByLookup(api.db, admin.personId)));
    printPlans = false;
  }
  planMs.sort((a, b) => a - b);
  joinPlanMs.sort((a, b) => a - b);
  // BENCH_BEFORE_REPOSITORY: another checkout's api/src/modules/im/chat.repository.ts; its list
  // statement (the join plan, as the bench's person reads it) timed in turns with this one on the
  // same rows: through the driver and by EXPLAIN (ANALYZE), 30 turns (issue 31, the list's statement).
  let statementInTurns: Record<string, { p50: number; p95: number }> | null = null;
  if (process.env.BENCH_BEFORE_REPOSITORY) {
    try {
      const before = (await import(process.env.BENCH_BEFORE_REPOSITORY)) as {
        conversationListSql: typeof conversationListSql;
      };
      const forms = {
        before: before.conversationListSql(tenant, admin.personId, {}, 1000, 0, false),
        after: conversationListSql(tenant, admin.personId, {}, 1000, 0, false),
      };
      const times: Record<string, number[]> = { beforeSql: [], afterSql: [], beforeExplain: [], afterExplain: [] };
      for (let i = 0; i < 30; i++)
        for (const form of ['before', 'after'] as const) {
          const t = performance.now();
          await api.db.execute(forms[form]);
          times[`${form}Sql`].push(performance.now() - t);
          const plan = (await api.db.execute(sql`explain (analyze, buffers) ${forms[form]}`)) as unknown as {
            rows: { 'QUERY PLAN': string }[];
          };
          times[`${form}Explain`].push(
            Number(/Execution Time: ([\d.]+)/.exec(plan.rows.at(-1)?.['QUERY PLAN'] ?? '')?.[1] ?? NaN),
          );
        }
      statementInTurns = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, spreadOf(v)]));
    } catch (err) {
      log(`the statement in turns failed: ${String(err)}`);
    }
  }

  log(`${SENDERS} senders into one group, ${ROUNDS} rounds`);
  // One after another: concurrent sign-ins from one address would meet the sign-in limits.
  const senders = [];
  for (let i = 0; i < SENDERS; i++)
    senders.push(
      await (async () => {
        const username = `bench-sender-${i}`;
        await api.db.execute(sql`
        with p as (insert into person (company_id, housing_estate_id, name) values (${c}, ${e}, ${`Sender ${i}`}) returning id),
        pc as (insert into person_company (company_id, housing_estate_id, person_id) select ${c}, ${e}, id from p returning person_id)
        insert into account (company_id, housing_estate_id, person_id, username, password_hash, kind, role_id)
        select ${c}, ${e}, person_id, ${username}, (select password_hash from account where username = 'admin'),
               'staff', (select role_id from account where username = 'admin') from pc`);
        return signIn(api, { username, password: 'admin123' });
      })(),
    );
  const made = await admin.post('/im/disgroup/chatgroupperson', {
    groupName: 'Busy group',
    personIds: senders.map((s) => s.personId),
  });
  const groupId = made.body.data.groupId as number;
  const seqs: number[] = [];
  const sendMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const answers = await Promise.all(
      senders.map(async (s, i) => {
        const started = performance.now();
        const res = await s.post('/im/chatrecord/save', {
          groupId,
          content: `round ${round} from ${i}`,
          clientId: `bench-${round}-${i}-xxxxxxxx`,
        });
        sendMs.push(performance.now() - started);
        if (res.status !== 200) throw new Error(`send answered ${res.status}: ${JSON.stringify(res.body)}`);
        return res.body.data.seq as number;
      }),
    );
    seqs.push(...answers);
  }
  // Resends of every message of the last round: nothing new.
  const resent = await Promise.all(
    senders.map((s, i) =>
      s.post('/im/chatrecord/save', {
        groupId,
        content: `round ${ROUNDS - 1} from ${i}`,
        clientId: `bench-${ROUNDS - 1}-${i}-xxxxxxxx`,
      }),
    ),
  );
  const [{ n, first, last }] = (
    (await api.db.execute(
      sql`select count(*)::int as n, min(seq) as first, max(seq) as last from im_chat_record where group_id = ${groupId} and type <> 10`,
    )) as unknown as { rows: { n: number; first: number; last: number }[] }
  ).rows;
  const sorted = [...seqs].sort((a, b) => a - b);
  const gapless = sorted.every((s, i) => i === 0 || s === sorted[i - 1] + 1);
  const duplicates = sorted.length - new Set(sorted).size;
  sendMs.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      bench: 'im',
      engine: 'postgres',
      conversations: http.last.total,
      otherGroups: OTHER_GROUPS,
      listLimit: 1000,
      listHttpMs: { p50: http.p50, p95: http.p95, max: http.max },
      // Eighth pass: the api in its own process, a browser's headers, the whole body read (p50/p95 to
      // the last byte; "parsed": decoded and parsed too), the api's CPU per call; through the gateway;
      // and the "before" api (BENCH_BEFORE_API_MAIN) in turns with it (null without).
      listHttpOwnProcessMs: ownFigures('after'),
      listHttpGatewayMs: ownFigures('gateway'),
      listHttpOwnProcessBeforeMs: ownFigures('before'),
      listSqlMs: { p50: repository.p50, p95: repository.p95, max: repository.max },
      listExplainMs: { p50: round(percentile(planMs, 50)), max: round(planMs[planMs.length - 1]) },
      statementInTurns,
      // Before (always the join) and now (by the person's share), in turns: SQL and EXPLAIN.
      // Seventh pass: before (19 typed columns, unprepared) and after (prepared, numbers packed), in
      // turns; "answer" adds writing the envelope's JSON as the route does.
      listSqlBeforeMs: spread(formTurns.before.sql),
      listSqlAfterMs: spread(formTurns.after.sql),
      listAnswerBeforeMs: spread(formTurns.before.answer),
      listAnswerAfterMs: spread(formTurns.after.answer),
      listAnswerApiCpuBeforeMs: spread(formTurns.before.cpu),
      listAnswerApiCpuAfterMs: spread(formTurns.after.cpu),
      listSqlJoinAlwaysMs: spread(turns.joinAlways),
      listSqlByShareMs: spread(turns.byShare),
      listExplainJoinAlwaysMs: {
        p50: round(percentile(joinPlanMs, 50)),
        max: round(joinPlanMs[joinPlanMs.length - 1]),
      },
      unreadTotalHttpMs: { p50: unread.p50, p95: unread.p95 },
      // Before (always the join) and now (by the person's share), in turns: SQL and EXPLAIN.
      unreadSqlJoinAlwaysMs: spread(unreadTurns.join.sql),
      unreadSqlByShareMs: spread(unreadTurns.byShare.sql),
      unreadExplainJoinAlwaysMs: spread(unreadTurns.join.explain),
      unreadExplainByShareMs: spread(unreadTurns.byShare.explain),
      budgetListP95Ms: 25,
      senders: SENDERS,
      rounds: ROUNDS,
      messages: seqs.length,
      stored: n,
      seqFirst: first,
      seqLast: last,
      gapless: gapless && last - first + 1 === n,
      duplicates,
      resendsStoredAgain: resent.filter((r) => !seqs.includes(r.body.data.seq)).length,
      sendMs: { p50: round(percentile(sendMs, 50)), p95: round(percentile(sendMs, 95)) },
      load: (await import('node:os')).loadavg().map((l) => round(l)),
    }),
  );
  if (!gapless || duplicates > 0) process.exitCode = 1;
} finally {
  await api.close();
}
process.exit(process.exitCode ?? 0);
