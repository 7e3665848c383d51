// A year of a busy estate (issue 35), run by `npm run bench retention`: the api on embedded PGlite
// in a temporary DATA_DIR (demo estate), then BENCH_DAYS (default 364) days of BENCH_RESIDENTS
// (default 2,000) residents' activity written set-based with SQL, one simulated week at a time,
// each week followed by the pruning the api runs in the background (db/retention.ts, default
// retention, as of that week's end) and the embedded vacuum. Per day: every resident sends one
// chat message (a record kept for ever, and a push to both people) and votes once a week
// (kept); 60 complaints (a notification row and a push to each staff and wall account, two
// for the filer); one SOS call (a row and a push per staff); 500 sign-ins (tokens of 7 days),
// 200 failed sign-ins, 300 captchas, 20 reset codes and 20 mails; once a month a disaster
// warning to every resident (a notification row each). Prints one JSON line: the database and
// DATA_DIR sizes after the year, the rows of each pruned kind kept against the rows written,
// and the list calls' p50/p95 on the fresh estate and after the year. Budget (README): DATA_DIR
// under 1 GB, pruned kinds under 60 MB, list calls within 2x of fresh (or 10 ms).
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { benchLog, round, timeRuns } from './kit';
import { pruneAll, reclaimEmbedded, retentionRules, RETENTION_DEFAULTS } from '../src/db/retention';
import { queryRows } from '../src/db/sql';
import { startApi } from '../src/server';
import type { Db } from '../src/db/open-database';

const DAYS = Number(process.env.BENCH_DAYS ?? 364);
const RESIDENTS = Number(process.env.BENCH_RESIDENTS ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const STAFF = Number(process.env.BENCH_STAFF ?? 20);
const DAY_S = 24 * 3600;
const log = benchLog('retention');
const CLIENT = `Basic ${Buffer.from('console:console-secret').toString('base64')}`;

/** Total bytes of the files under `dir`. */
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}
const mb = (bytes: number) => round(bytes / (1024 * 1024));

const dataDir = mkdtempSync(join(tmpdir(), 'pm-retention-bench-'));
const api = await startApi({ dataDir, seed: true, logLevel: 'silent', retentionIntervalMs: 3600_000 });
const db: Db = api.db;

async function post(token: string, path: string, body: object): Promise<unknown> {
  const res = await fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  return res.json();
}

const signIn = await fetch(`${api.url}/oauth/token`, {
  method: 'POST',
  headers: { authorization: CLIENT, 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=password&username=admin&password=admin123',
});
const token = ((await signIn.json()) as { access_token: string }).access_token;
const calls: Record<string, () => Promise<unknown>> = {
  messageList: () => post(token, '/base/message/list', { page: 1, limit: 20 }),
  messageUnread: () => post(token, '/base/message/unRead', {}),
  unreadComplaintMessages: () => post(token, '/base/message/list', { page: 1, limit: 20, unReadStatus: 0 }),
};
async function timeCalls(): Promise<Record<string, { p50: number; p95: number }>> {
  const out: Record<string, { p50: number; p95: number }> = {};
  for (const [name, run] of Object.entries(calls)) {
    const { p50, p95 } = await timeRuns(run, { runs: RUNS });
    out[name] = { p50, p95 };
  }
  return out;
}

log('timing list calls on the fresh estate');
const fresh = await timeCalls();
const freshDataDir = folderBytes(dataDir);

// The estate's staff and wall accounts (the admin's estate): who gets each complaint's and SOS's rows.
const [tenant] = await queryRows<{ company_id: number; housing_estate_id: number }>(
  db,
  sql`select company_id, housing_estate_id from account where username = 'admin'`,
);
const staff = (
  await queryRows<{ person_id: number }>(
    db,
    sql`select person_id from account where kind = 'staff' and housing_estate_id = ${tenant.housing_estate_id}`,
  )
).map((r) => r.person_id);
// A busy estate's office: the demo's staff accounts and more (synthetic persons) up to BENCH_STAFF, with wall screens.
for (let i = 0; staff.length < STAFF; i++) staff.push(4_000_000 + i);
const staffArray = sql.raw(`array[${staff.join(',')}]::int[]`);
// The chat records go to one new group: its seq numbers start far above any demo record's.
const [group] = await queryRows<{ id: number }>(
  db,
  sql`insert into im_group (company_id, housing_estate_id, group_type, name, owner_person_id)
      values (${tenant.company_id}, ${tenant.housing_estate_id}, 2, 'bench', ${staff[0]}) returning id`,
);
const [announcement] = await queryRows<{ id: number }>(db, sql`select min(id) as id from announcement`);
/** A whole number written into the SQL text (set-based inserts with UNION ALL need typed literals, not parameters). */
const int = (v: number) => sql.raw(String(Math.trunc(v)));
const co = int(tenant.company_id);
const he = int(tenant.housing_estate_id);
const RESIDENT_BASE = 5_000_000;

const written: Record<string, number> = {};
const add = (kind: string, n: number) => (written[kind] = (written[kind] ?? 0) + n);
let chatSeq = 1_000_000;

/** One simulated week of activity, `weeksAgo` weeks before now (0: the week ending now). */
async function week(w: number, days: number, end: Date): Promise<void> {
  const start = new Date(end.getTime() - days * DAY_S * 1000).toISOString();
  const span = days * DAY_S;
  // `n` moments spread over the week: `at(g, n)` is the g-th of them.
  const at = (n: number) => sql.raw(`('${start}'::timestamptz + make_interval(secs => g * ${span / n}))`);
  const seqBase = w * 10_000_000;
  const chats = RESIDENTS * days;
  await db.execute(sql`insert into im_chat_record (company_id, housing_estate_id, group_id, seq, from_person_id, content, created_at)
    select ${co}, ${he}, ${int(group.id)}, ${int(chatSeq)} + g, ${int(RESIDENT_BASE)} + g % ${int(RESIDENTS)}, 'Good morning, is the lift fixed yet?', ${at(chats)}
    from generate_series(1, ${int(chats)}) g`);
  chatSeq += chats;
  add('chatRecords', chats);
  const votes = Math.round((RESIDENTS * days) / 7);
  await db.execute(sql`insert into announcement_vote (announcement_id, person_id, option_id, vote_time)
    select ${int(announcement.id)}, ${int(RESIDENT_BASE)} + g % ${int(RESIDENTS)}, 1, ${at(votes)} from generate_series(1, ${int(votes)}) g`);
  add('votes', votes);
  // Pushes: each chat message to both people, each complaint to every staff account and the filer, each SOS to staff.
  const complaints = 60 * days;
  // The texts once per push (push_message), a narrow row per recipient naming it (push_journal).
  await db.execute(sql`insert into push_message (message, created_at)
    select '{"type":"chat","data":{"groupId":1}}'::jsonb, ${at(chats)} from generate_series(1, ${int(chats)}) g
    union all
    select '{"type":"complaint","data":{"id":1}}'::jsonb, ${at(complaints)} from generate_series(1, ${int(complaints)}) g`);
  await db.execute(sql`insert into push_journal (person_id, seq, message_id, created_at)
    select ${int(RESIDENT_BASE)} + g % ${int(RESIDENTS)}, ${int(seqBase)} + g, g, ${at(chats)}
    from generate_series(1, ${int(chats)}) g
    union all
    select s, ${int(seqBase)} + 5000000 + g, g, ${at(complaints)}
    from generate_series(1, ${int(complaints)}) g, unnest(${staffArray}) s`);
  add('pushJournal', chats + complaints * staff.length);
  add('pushMessages', chats + complaints);
  // Notification rows: a complaint's to every staff account and two to the filer; an SOS's to staff; a warning's to every resident.
  const sos = days;
  await db.execute(sql`insert into message (company_id, housing_estate_id, person_id, message_type, data_id, message_time, read_status)
    select ${co}, ${he}, s, 11, g, ${at(complaints)}, g % 3 = 0 from generate_series(1, ${int(complaints)}) g, unnest(${staffArray}) s
    union all
    select ${co}, ${he}, ${int(RESIDENT_BASE)} + g % ${int(RESIDENTS)}, 13, g, ${at(complaints)}, false
    from generate_series(1, ${int(complaints * 2)}) g
    union all
    select ${co}, ${he}, s, 7, g, ${at(sos)}, true from generate_series(1, ${int(sos)}) g, unnest(${staffArray}) s`);
  add('messages', complaints * (staff.length + 2) + sos * staff.length);
  if (w % 4 === 0) {
    await db.execute(sql`insert into message (company_id, housing_estate_id, person_id, message_type, data_id, message_time)
      select ${co}, ${he}, ${int(RESIDENT_BASE)} + g, 49, 1, ${start}::timestamptz from generate_series(0, ${int(RESIDENTS - 1)}) g`);
    add('messages', RESIDENTS);
  }
  const signIns = 500 * days;
  await db.execute(sql`insert into oauth_token (token_hash, account_id, expires_at, created_at)
    select 'bench-' || ${int(w)} || '-' || g, 1, ${at(signIns)} + interval '7 days', ${at(signIns)} from generate_series(1, ${int(signIns)}) g`);
  add('tokens', signIns);
  await db.execute(sql`insert into login_failure (username, address, at)
    select 'resident' || g % ${int(RESIDENTS)}, '198.51.100.' || g % 250, ${at(200 * days)} from generate_series(1, ${int(200 * days)}) g`);
  add('loginFailures', 200 * days);
  await db.execute(sql`insert into captcha (id, x, expires_at)
    select 'bench-' || ${int(w)} || '-' || g, 100, ${at(300 * days)} + interval '5 minutes' from generate_series(1, ${int(300 * days)}) g`);
  add('captchas', 300 * days);
  await db.execute(sql`insert into password_reset_code (account_id, code_hash, expires_at, created_at)
    select 1, md5(g::text), ${at(20 * days)} + interval '5 minutes', ${at(20 * days)} from generate_series(1, ${int(20 * days)}) g`);
  add('resetCodes', 20 * days);
  await db.execute(sql`insert into mail_outbox ("to", subject, text, status, created_at)
    select 'resident' || g || '@example.com', 'Your code', repeat('Your password reset code is 123456. ', 10), 'sent', ${at(20 * days)}
    from generate_series(1, ${int(20 * days)}) g`);
  add('mail', 20 * days);
}

const rules = retentionRules(RETENTION_DEFAULTS);
const weeks = Math.ceil(DAYS / 7);
const now = Date.now();
const started = performance.now();
for (let w = 0; w < weeks; w++) {
  const days = Math.min(7, DAYS - w * 7);
  const end = new Date(now - (weeks - 1 - w) * 7 * DAY_S * 1000);
  await week(w, days, end);
  // The background pruning as it would have run through that week, then the embedded vacuum.
  const deleted = await pruneAll(db, rules, { now: end, maxBatches: 1_000_000 });
  await reclaimEmbedded(db, rules, deleted);
  if (w % 4 === 3 || w === weeks - 1)
    log(
      `week ${w + 1}/${weeks}: DATA_DIR ${mb(folderBytes(dataDir))} MB (${Math.round((performance.now() - started) / 1000)} s)`,
    );
}
await db.execute(sql`analyze`);

log('timing list calls after the year');
const afterYear = await timeCalls();
const kept: Record<string, number> = {};
const tables: Record<string, string> = {
  pushJournal: 'push_journal',
  pushMessages: 'push_message',
  messages: 'message',
  tokens: 'oauth_token',
  loginFailures: 'login_failure',
  captchas: 'captcha',
  resetCodes: 'password_reset_code',
  mail: 'mail_outbox',
  chatRecords: 'im_chat_record',
  votes: 'announcement_vote',
};
const prunedBytes: number[] = [];
for (const [kind, table] of Object.entries(tables)) {
  const [row] = await queryRows<{ n: number; bytes: string }>(
    db,
    sql`select count(*)::int as n, pg_total_relation_size(${table}::regclass)::text as bytes from ${sql.identifier(table)}`,
  );
  kept[kind] = row.n;
  if (rules.some((r) => r.table === table)) prunedBytes.push(Number(row.bytes));
}
const [size] = await queryRows<{ bytes: string }>(db, sql`select pg_database_size(current_database())::text as bytes`);
await db.execute(sql`checkpoint`);
const dataDirBytes = folderBytes(dataDir);
/** The write-ahead log's share of DATA_DIR (wherever the engine keeps pg_wal in it). */
function walBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    total += entry.name === 'pg_wal' ? folderBytes(path) : walBytes(path);
  }
  return total;
}
const walDirBytes = walBytes(dataDir);
// Measured while the api runs, after a checkpoint. (The in-process api.close() with an on-disk
// DATA_DIR did not return in this script; the process ends below instead.)
rmSync(dataDir, { recursive: true, force: true });

const line = {
  bench: 'retention',
  days: DAYS,
  residents: RESIDENTS,
  staffAccounts: staff.length,
  retention: RETENTION_DEFAULTS,
  written,
  kept,
  prunedKindsMb: mb(prunedBytes.reduce((a, b) => a + b, 0)),
  databaseMb: mb(Number(size.bytes)),
  dataDirMb: { fresh: mb(freshDataDir), afterYear: mb(dataDirBytes), walAfterYear: mb(walDirBytes) },
  listCallsMs: { fresh, afterYear },
  seconds: Math.round((performance.now() - started) / 1000),
};
console.log(JSON.stringify(line));
process.exit(0);
