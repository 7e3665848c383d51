import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './database-types';
import { JOURNAL_RETENTION_MS } from '../modules/realtime/push-journal';
import { parseStoredKey } from '../modules/upload/upload-store';
import { queryRows } from './sql';

/**
 * What the api keeps, and for how long (README "Data that stays bounded", issue 35). Everything
 * else is the estate's record (complaints, orders, votes, chats …) and is kept.
 */
export interface Retention {
  /** Pushes in the journal a reconnecting gateway may ask for again (RETENTION_PUSH_JOURNAL_MINUTES). */
  pushJournalMinutes: number;
  /** Notification rows (`message`) of every person: wall screens, staff and residents (RETENTION_MESSAGE_DAYS). */
  messageDays: number;
  /** Tokens after they expired or were signed out (RETENTION_TOKEN_DAYS). */
  tokenDays: number;
  /** Sign-in leftovers after they stopped counting: failures, captchas, reset codes (RETENTION_SIGN_IN_DAYS). */
  signInDays: number;
  /** Mail kept in the outbox (RETENTION_MAIL_DAYS). */
  mailDays: number;
  /** Uploads no saved record referenced (a draft abandoned), row and files (RETENTION_DRAFT_UPLOAD_DAYS). */
  draftUploadDays?: number;
}

export const RETENTION_DEFAULTS: Retention = {
  pushJournalMinutes: JOURNAL_RETENTION_MS / 60_000,
  messageDays: 180,
  tokenDays: 1,
  signInDays: 1,
  mailDays: 30,
  draftUploadDays: 7,
};

/** The retention of the environment (RETENTION_* variables, each a positive number), over the defaults. */
export function retentionFromEnv(env: Record<string, string | undefined>): Retention {
  const read = (name: string, fallback: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${raw}")`);
    return value;
  };
  return {
    pushJournalMinutes: read('RETENTION_PUSH_JOURNAL_MINUTES', RETENTION_DEFAULTS.pushJournalMinutes),
    messageDays: read('RETENTION_MESSAGE_DAYS', RETENTION_DEFAULTS.messageDays),
    tokenDays: read('RETENTION_TOKEN_DAYS', RETENTION_DEFAULTS.tokenDays),
    signInDays: read('RETENTION_SIGN_IN_DAYS', RETENTION_DEFAULTS.signInDays),
    mailDays: read('RETENTION_MAIL_DAYS', RETENTION_DEFAULTS.mailDays),
    draftUploadDays: read('RETENTION_DRAFT_UPLOAD_DAYS', RETENTION_DEFAULTS.draftUploadDays!),
  };
}

/** One kind of row that is pruned: its table and which rows are past keeping, as of `now`. */
export interface RetentionRule {
  kind: string;
  table: string;
  expired(now: Date): SQL;
}

const DAY = 24 * 3600_000;
const before = (now: Date, ms: number) => sql`${new Date(now.getTime() - ms).toISOString()}::timestamptz`;

export function retentionRules(r: Retention): RetentionRule[] {
  return [
    {
      kind: 'pushJournal',
      table: 'push_journal',
      expired: (now) => sql`created_at < ${before(now, r.pushJournalMinutes * 60_000)}`,
    },
    {
      // The pushes' texts, written with their journal rows (same created_at) and kept as long.
      kind: 'pushMessages',
      table: 'push_message',
      expired: (now) => sql`created_at < ${before(now, r.pushJournalMinutes * 60_000)}`,
    },
    { kind: 'messages', table: 'message', expired: (now) => sql`message_time < ${before(now, r.messageDays * DAY)}` },
    {
      kind: 'tokens',
      table: 'oauth_token',
      expired: (now) =>
        sql`(expires_at < ${before(now, r.tokenDays * DAY)} or revoked_at < ${before(now, r.tokenDays * DAY)})`,
    },
    { kind: 'loginFailures', table: 'login_failure', expired: (now) => sql`at < ${before(now, r.signInDays * DAY)}` },
    { kind: 'captchas', table: 'captcha', expired: (now) => sql`expires_at < ${before(now, r.signInDays * DAY)}` },
    {
      kind: 'resetCodes',
      table: 'password_reset_code',
      expired: (now) => sql`expires_at < ${before(now, r.signInDays * DAY)}`,
    },
    { kind: 'mail', table: 'mail_outbox', expired: (now) => sql`created_at < ${before(now, r.mailDays * DAY)}` },
    // Uses of the per-account quotas (modules/quota): a day is their longest window, so two days
    // is past any count. Each account's own old uses are also dropped when it uses a quota again;
    // this catches the accounts that never come back.
    { kind: 'quotaUses', table: 'account_usage', expired: (now) => sql`at < ${before(now, 2 * DAY)}` },
    // Client ids of resident writes (modules/resident/write-once.ts): an app retries a write within
    // minutes, or when it is back online; a week is past any retry.
    { kind: 'residentWrites', table: 'resident_write', expired: (now) => sql`created_at < ${before(now, 7 * DAY)}` },
  ];
}

/** A 64-bit advisory-lock key per rule (the same on every api process). */
function lockKey(kind: string): string {
  return createHash('sha256').update(`retention:${kind}`).digest().readBigInt64BE(0).toString();
}

/**
 * Deletes at most `limit` rows of the rule that are past keeping, in one short transaction;
 * answers how many. Only one process prunes a rule at a time (a transaction-level advisory lock,
 * tried, never waited for: another process pruning the same rule answers 0 and moves on), and the
 * rows are taken with SKIP LOCKED, so a pruning never waits for, nor blocks, a call writing them.
 */
export async function pruneBatch(db: Db, rule: RetentionRule, limit: number, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const [lock] = await queryRows<{ got: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${lockKey(rule.kind)}::bigint) as got`,
    );
    if (!lock.got) return 0;
    const table = sql.identifier(rule.table);
    const rows = await queryRows<{ n: number }>(
      tx,
      sql`with gone as (
            delete from ${table} where ctid = any(array(
              select ctid from ${table} where ${rule.expired(now)} limit ${limit} for update skip locked))
            returning 1)
          select count(*)::int as n from gone`,
    );
    return rows[0]?.n ?? 0;
  });
}

/**
 * Deletes at most `limit` uploads that no saved record claimed and that are older than
 * `days`, row and files (original and thumbnail under `uploadDir`); answers how many. Rows go
 * first, in a short transaction (SKIP LOCKED, one process at a time as {@link pruneBatch}); their
 * files after it committed, so a file is never missing for a row that stays.
 */
export async function pruneDraftUploads(
  db: Db,
  uploadDir: string,
  days: number,
  limit: number,
  now = new Date(),
): Promise<number> {
  const gone = await db.transaction(async (tx) => {
    const [lock] = await queryRows<{ got: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${lockKey('draftUploads')}::bigint) as got`,
    );
    if (!lock.got) return [];
    return queryRows<{ path: string; thumbnail_path: string | null }>(
      tx,
      sql`delete from upload_file where id = any(array(
            select id from upload_file where claimed_at is null and created_at < ${before(now, days * DAY)}
            limit ${limit} for update skip locked))
          returning path, thumbnail_path`,
    );
  });
  for (const row of gone)
    for (const path of [row.path, row.thumbnail_path]) {
      const key = path ? parseStoredKey(path)?.key : undefined;
      if (key) await rm(join(uploadDir, key), { force: true });
    }
  return gone.length;
}

export interface PruneOptions {
  /** Rows per transaction (default 500): each batch holds the embedded database for milliseconds only. */
  batchSize?: number;
  /** Batches per rule per run (default 200): a backlog is worked off over several runs. */
  maxBatches?: number;
  now?: Date;
  /** Between batches (default: the event loop's next turn, so calls are answered in between). */
  pause?: () => Promise<void>;
}

/** Prunes every rule in batches; answers the rows deleted per kind. */
export async function pruneAll(
  db: Db,
  rules: RetentionRule[],
  options: PruneOptions = {},
): Promise<Record<string, number>> {
  const batchSize = options.batchSize ?? 500;
  const maxBatches = options.maxBatches ?? 200;
  const pause = options.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
  const deleted: Record<string, number> = {};
  for (const rule of rules) {
    deleted[rule.kind] = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const n = await pruneBatch(db, rule, batchSize, options.now);
      deleted[rule.kind] += n;
      if (n < batchSize) break;
      await pause();
    }
  }
  return deleted;
}

/**
 * The embedded database has no autovacuum: after rows were deleted, VACUUM makes their space
 * reusable (so the files stop growing) and CHECKPOINT lets the write-ahead log be recycled, so
 * DATA_DIR stays bounded. PostgreSQL's autovacuum and checkpointer do this by themselves.
 */
export async function reclaimEmbedded(db: Db, rules: RetentionRule[], deleted: Record<string, number>): Promise<void> {
  for (const rule of rules) if (deleted[rule.kind] > 0) await db.execute(sql`vacuum ${sql.identifier(rule.table)}`);
  if (deleted.draftUploads > 0) await db.execute(sql`vacuum upload_file`);
  await db.execute(sql`checkpoint`);
}

/**
 * Prunes in the background every `intervalMs` (one run at a time per process); answers the stop
 * function. `embedded`: PGlite, which is vacuumed after each run that deleted rows.
 */
export function startRetention(
  db: Db,
  retention: Retention,
  options: {
    embedded: boolean;
    intervalMs?: number;
    onError: (err: unknown) => void;
    onPruned?: (deleted: Record<string, number>) => void;
    /** Where uploads are stored: abandoned drafts' files are deleted there with their rows. */
    uploadDir?: string;
  },
): () => void {
  const rules = retentionRules(retention);
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void (async () => {
      const deleted = await pruneAll(db, rules);
      if (options.uploadDir && retention.draftUploadDays) {
        deleted.draftUploads = 0;
        // Small batches (each file is a removal on disk), at most 2,000 uploads per run.
        for (let batch = 0; batch < 20; batch++) {
          const n = await pruneDraftUploads(db, options.uploadDir, retention.draftUploadDays, 100);
          deleted.draftUploads += n;
          if (n < 100) break;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
      if (options.embedded && Object.values(deleted).some((n) => n > 0)) await reclaimEmbedded(db, rules, deleted);
      options.onPruned?.(deleted);
    })()
      .catch(options.onError)
      .finally(() => {
        running = false;
      });
  }, options.intervalMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
