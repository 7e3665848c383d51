import { bigint, index, integer, jsonb, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/**
 * Each person's push sequence (issue 14): the number of the last push journaled for them. A push
 * takes the next number in the transaction of the change it reports, so a person's numbers follow
 * the order their changes committed, with no gaps.
 */
export const pushCursor = pgTable('push_cursor', {
  personId: integer().primaryKey(),
  lastSeq: bigint({ mode: 'number' }).notNull(),
});

/**
 * Every push of the last minutes, per recipient and sequence number: what an upstream connection
 * that resumes from a number is sent again (modules/realtime/push-journal.ts prunes it).
 */
export const pushJournal = pgTable(
  'push_journal',
  {
    personId: integer().notNull(),
    seq: bigint({ mode: 'number' }).notNull(),
    message: jsonb().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.personId, t.seq] }), index().on(t.createdAt)],
);
