import { doublePrecision, date, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';

/**
 * The dashboard's charts per day (issue 22; DESIGN §6, 1,000,000 rows): complaints and work
 * orders by the estate's local report day, status and type, with the summed minutes to deal and
 * to complete. Kept by statement triggers on complain and event_order (hand-written SQL of the
 * migration), like work_total, so every write path keeps it; a chart reads at most 30 days × 3
 * statuses × 6 types rows instead of every report of the period. A day is the report's local day in the
 * estate's time zone (recounted when the estate changes it).
 */
export const workDayTotal = pgTable(
  'work_day_total',
  {
    kind: text().notNull(),
    companyId: integer().notNull(),
    housingEstateId: integer().notNull(),
    day: date().notNull(),
    status: smallint().notNull(),
    /** EventType of a work order; 0 for complaints and work orders without one. */
    type: smallint().notNull(),
    n: integer().notNull(),
    dealMinutes: doublePrecision().notNull(),
    dealN: integer().notNull(),
    completeMinutes: doublePrecision().notNull(),
    completeN: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.housingEstateId, t.day, t.status, t.type] })],
);
