import { integer, timestamp } from 'drizzle-orm/pg-core';

/** Surrogate key of every table: an identity column (seeds may still insert explicit ids). */
export const id = () => integer().primaryKey().generatedByDefaultAsIdentity();

/** Every tenant-owned row carries its company and housing estate; queries filter on both. */
export const tenantColumns = () => ({
  companyId: integer().notNull(),
  housingEstateId: integer().notNull(),
});

/** Timestamps are stored with time zone and answered as ISO 8601 UTC strings. */
export const time = () => timestamp({ withTimezone: true, mode: 'date' });
export const createdAt = () => time().notNull().defaultNow();
