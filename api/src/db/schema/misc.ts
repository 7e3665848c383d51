import { boolean, date, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantColumns } from './columns';

/**
 * An ad shown in the resident app (issue 33): picture, detail picture, jump link (http(s) or
 * `app://<screen>`), title, order, period and on/off. The period is days of the estate's time zone
 * (`start_date` … `end_date`, both included; null = open), so the estate's today decides.
 */
export const ad = pgTable(
  'ad',
  {
    id: id(),
    ...tenantColumns(),
    title: text().notNull().default(''),
    image: text().notNull(),
    detailImage: text(),
    link: text(),
    sort: integer().notNull().default(0),
    enabled: boolean().notNull().default(true),
    startDate: date({ mode: 'string' }),
    endDate: date({ mode: 'string' }),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (t) => [index().on(t.housingEstateId, t.enabled, t.sort)],
);

/**
 * A resident write that carried a clientId (issue 35): the first call claims (person, kind,
 * clientId) in the transaction of its write and keeps its answer; a retry with the same key
 * answers that instead of writing again (api/src/modules/resident/write-once.ts).
 */
export const residentWrite = pgTable(
  'resident_write',
  {
    personId: integer().notNull(),
    kind: text().notNull(),
    clientId: text().notNull(),
    answer: jsonb(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.personId, t.kind, t.clientId] }), index().on(t.createdAt)],
);
