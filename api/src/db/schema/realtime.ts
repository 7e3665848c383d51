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
 * The text of every push of the last minutes, stored once however many recipients it has (a
 * message to a group of 500 is one row here and 500 narrow rows in push_journal).
 */
export const pushMessage = pgTable(
  'push_message',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    message: jsonb().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.createdAt)],
);

/**
 * Every push of the last minutes, per recipient and sequence number: what an upstream connection
 * that resumes from a number is sent again (its text in push_message; modules/realtime/push-journal.ts
 * writes and reads both, db/retention.ts prunes both).
 */
export const pushJournal = pgTable(
  'push_journal',
  {
    personId: integer().notNull(),
    seq: bigint({ mode: 'number' }).notNull(),
    messageId: bigint({ mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.personId, t.seq] }), index().on(t.createdAt)],
);
