// Data that stays bounded (issue 35): each kind of row the api keeps only for a while is pruned
// once past its retention, in small batches, on both engines; what is within it stays. Two
// processes pruning at once on PostgreSQL delete each row once and never fail. Time is moved by
// writing rows with old timestamps, never by waiting.
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  RETENTION_DEFAULTS,
  pruneAll,
  reclaimEmbedded,
  retentionFromEnv,
  retentionRules,
  type Retention,
} from '../src/db/retention';
import { queryRows } from '../src/db/sql';
import { startTestApi, testEngines, type TestApi } from './kit';

const retention: Retention = { pushJournalMinutes: 10, messageDays: 30, tokenDays: 1, signInDays: 1, mailDays: 7 };
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

/** For each kind: rows of `n` ages (ms before now) inserted set-based; `old` is past the retention above, `fresh` within. */
const kinds: Record<string, { table: string; old: number; fresh: number; insert(ages: SQL): SQL }> = {
  pushJournal: {
    table: 'push_journal',
    old: 11 * MIN,
    fresh: 9 * MIN,
    insert: (ages) =>
      sql`insert into push_journal (person_id, seq, message_id, created_at)
          select 900000 + g, extract(epoch from a)::bigint, 0, now() - a from ${ages}`,
  },
  pushMessages: {
    table: 'push_message',
    old: 11 * MIN,
    fresh: 9 * MIN,
    insert: (ages) => sql`insert into push_message (message, created_at) select '{}'::jsonb, now() - a from ${ages}`,
  },
  messages: {
    table: 'message',
    old: 31 * DAY,
    fresh: 29 * DAY,
    insert: (ages) =>
      sql`insert into message (company_id, housing_estate_id, person_id, message_type, message_time)
          select 1, 1, 900000 + g, 7, now() - a from ${ages}`,
  },
  tokens: {
    table: 'oauth_token',
    old: 2 * DAY,
    fresh: 0,
    insert: (ages) =>
      sql`insert into oauth_token (token_hash, account_id, expires_at)
          select 'retention-' || g || '-' || extract(epoch from a), 1, now() - a + interval '1 hour' from ${ages}`,
  },
  loginFailures: {
    table: 'login_failure',
    old: 2 * DAY,
    fresh: 20 * MIN,
    insert: (ages) =>
      sql`insert into login_failure (username, address, at) select 'retention-' || g, '192.0.2.1', now() - a from ${ages}`,
  },
  captchas: {
    table: 'captcha',
    old: 2 * DAY,
    fresh: 0,
    insert: (ages) =>
      sql`insert into captcha (id, x, expires_at)
          select 'retention-' || g || '-' || extract(epoch from a), 1, now() - a from ${ages}`,
  },
  resetCodes: {
    table: 'password_reset_code',
    old: 2 * DAY,
    fresh: 0,
    insert: (ages) =>
      sql`insert into password_reset_code (account_id, code_hash, expires_at) select 1, 'x', now() - a from ${ages}`,
  },
  mail: {
    table: 'mail_outbox',
    old: 8 * DAY,
    fresh: 6 * DAY,
    insert: (ages) =>
      sql`insert into mail_outbox ("to", subject, text, status, created_at)
          select 'a@example.com', 's', 't', 'sent', now() - a from ${ages}`,
  },
  quotaUses: {
    table: 'account_usage',
    old: 3 * DAY,
    fresh: 23 * 60 * MIN,
    insert: (ages) =>
      sql`insert into account_usage (account_id, kind, amount, at) select 1, 'upload-bytes', 1000, now() - a from ${ages}`,
  },
  residentWrites: {
    table: 'resident_write',
    old: 8 * DAY,
    fresh: 6 * DAY,
    insert: (ages) =>
      sql`insert into resident_write (person_id, kind, client_id, created_at)
          select 900000 + g, 'complaint', 'retention-' || extract(epoch from a), now() - a from ${ages}`,
  },
};

/** `n` rows aged `ms`: a set `(g, a)` to select from. */
const aged = (n: number, ms: number) =>
  sql`(select g, make_interval(secs => ${ms / 1000}) as a from generate_series(1, ${n}) as g) as ages`;

describe.each(testEngines())('retention on %s', (engine) => {
  let api: TestApi;
  const count = async (table: string) =>
    (await queryRows<{ n: number }>(api.db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0].n;

  beforeAll(async () => {
    // The api's own background pruning stays out of the way (an hour): the test calls it.
    api = await startTestApi(engine, { retentionIntervalMs: 3600_000 });
  });
  afterAll(async () => api?.close());

  it('has a rule for every kind it documents', () => {
    expect(retentionRules(retention).map((r) => r.kind)).toEqual(Object.keys(kinds));
  });

  it.each(Object.keys(kinds))(
    'when %s rows are past their retention, then a pruning in batches deletes them all and keeps the rest',
    async (kind) => {
      const k = kinds[kind];
      const rule = retentionRules(retention).find((r) => r.kind === kind)!;
      const before = await count(k.table);
      await api.db.execute(k.insert(aged(23, k.old)));
      await api.db.execute(k.insert(aged(5, k.fresh)));
      expect(await count(k.table)).toBe(before + 28);
      const deleted = await pruneAll(api.db, [rule], { batchSize: 4 });
      expect(deleted[kind]).toBeGreaterThanOrEqual(23);
      // Only what was past keeping went: the fresh rows, and any the demo had within it, stay.
      const [left] = await queryRows<{ n: number }>(
        api.db,
        sql`select count(*)::int as n from ${sql.identifier(k.table)} where ${rule.expired(new Date())}`,
      );
      expect(left.n).toBe(0);
      expect(await count(k.table)).toBe(before + 28 - deleted[kind]);
      expect(await count(k.table)).toBeGreaterThanOrEqual(5);
      if (engine === 'pglite') await reclaimEmbedded(api.db, [rule], deleted);
    },
  );

  it('when two processes prune the same backlog at once, then every old row is deleted once and neither fails', async () => {
    await api.db.execute(kinds.messages.insert(aged(1000, kinds.messages.old)));
    const rules = retentionRules(retention).filter((r) => r.kind === 'messages');
    const [a, b] = await Promise.all([
      pruneAll(api.db, rules, { batchSize: 50 }),
      pruneAll(api.db, rules, { batchSize: 50 }),
    ]);
    expect(a.messages + b.messages).toBe(1000);
    const [left] = await queryRows<{ n: number }>(
      api.db,
      sql`select count(*)::int as n from message where ${rules[0].expired(new Date())}`,
    );
    expect(left.n).toBe(0);
  });

  it('when the api runs, then it prunes in the background by itself', async () => {
    const quick = await startTestApi(engine, { retentionIntervalMs: 50, retention: { messageDays: 30 } });
    try {
      await quick.db.execute(kinds.messages.insert(aged(30, 31 * DAY)));
      await vi.waitFor(
        async () => {
          const [left] = await queryRows<{ n: number }>(
            quick.db,
            sql`select count(*)::int as n from message where message_time < now() - interval '30 days'`,
          );
          expect(left.n).toBe(0);
        },
        { timeout: 60_000, interval: 100 },
      );
    } finally {
      await quick.close();
    }
  });
});

describe('retention settings', () => {
  it('when RETENTION_* are set, then they replace the defaults; a wrong value is refused with its name', () => {
    expect(retentionFromEnv({})).toEqual(RETENTION_DEFAULTS);
    expect(retentionFromEnv({ RETENTION_MESSAGE_DAYS: '90', RETENTION_MAIL_DAYS: '' })).toEqual({
      ...RETENTION_DEFAULTS,
      messageDays: 90,
    });
    expect(() => retentionFromEnv({ RETENTION_TOKEN_DAYS: 'soon' })).toThrow(/RETENTION_TOKEN_DAYS/);
    expect(() => retentionFromEnv({ RETENTION_SIGN_IN_DAYS: '0' })).toThrow(/RETENTION_SIGN_IN_DAYS/);
  });
});
