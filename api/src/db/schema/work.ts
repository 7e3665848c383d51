import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tenantColumns, time } from './columns';

/**
 * Columns shared by complaints and event work orders (SPEC §3): the report, who reported it
 * from which house (personType: HouseType, personIdentity: Identity), the deal and complete
 * steps and the resident's 3-star rating. img/voice are `;`-joined URL lists.
 */
const workColumns = () => ({
  id: id(),
  ...tenantColumns(),
  name: text().notNull(),
  note: text().notNull().default(''),
  img: text(),
  voice: text(),
  reportPersonId: integer().notNull(),
  personType: smallint().notNull(),
  personIdentity: smallint(),
  unitId: integer(),
  carSpaceId: integer(),
  shopId: integer(),
  reportTime: time().notNull().defaultNow(),
  personDealId: integer(),
  dealTime: time(),
  dealNote: text(),
  dealImg: text(),
  personCompleteId: integer(),
  completeTime: time(),
  completeNote: text(),
  completeImg: text(),
  serviceComment: text(),
  serviceScore: integer(),
  serviceEfficiency: smallint(),
  serviceAttitude: smallint(),
  serviceProcess: smallint(),
  updatedAt: time(),
  // The row's display as the list and the record show it (SPEC §3), kept on the row so a page
  // reads one table instead of probing six per row (issue 34, migration 0045). Kept right by
  // triggers, whoever writes: filled on insert and when the row's person or house changes, and
  // written again when that person, unit, floor, block, car space or shop is renamed or deleted.
  reportPersonName: text(),
  reportPersonPhoto: text(),
  unitName: text(),
  floorName: text(),
  buildName: text(),
  carparkCode: text(),
  shopCode: text(),
  // The row as the list page answers it (SPEC §3, the kind's field names): PostgreSQL's
  // json_build_object of the row's fields as text, made by a trigger on every insert and update
  // (migration 0046, issue 34), so a page joins ten texts instead of building ten objects.
  listJson: text(),
});

/**
 * The rows of one unit, car space or shop, for the triggers that keep the row's display right
 * when the house is renamed (migration 0045): without them a rename scans every row.
 */
const houseIndexes = (t: { unitId: AnyPgColumn; carSpaceId: AnyPgColumn; shopId: AnyPgColumn }) => [
  index()
    .on(t.unitId)
    .where(sql`${t.unitId} is not null`),
  index()
    .on(t.carSpaceId)
    .where(sql`${t.carSpaceId} is not null`),
  index()
    .on(t.shopId)
    .where(sql`${t.shopId} is not null`),
];

/** Complaint / suggestion; complainStatus: WorkStatus. */
export const complain = pgTable(
  'complain',
  {
    ...workColumns(),
    complainCode: text().notNull(),
    complainStatus: smallint().notNull().default(1),
  },
  (t) => [
    uniqueIndex().on(t.complainCode),
    // The list: tenant first, then the filter, newest first, so a page (even a deep one) is an
    // index-only walk. Status totals come from work_total (1,000,000-row budget, DESIGN §6).
    index('complain_estate_status_time_idx').on(
      t.companyId,
      t.housingEstateId,
      t.complainStatus,
      t.reportTime.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('complain_estate_time_idx').on(
      t.companyId,
      t.housingEstateId,
      t.reportTime.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('complain_estate_house_type_time_idx').on(
      t.companyId,
      t.housingEstateId,
      t.personType,
      t.reportTime.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index().on(t.reportPersonId, t.reportTime.desc().nullsFirst()),
    ...houseIndexes(t),
  ],
);

/** Event work order; eventStatus: WorkStatus, type: EventType. */
export const eventOrder = pgTable(
  'event_order',
  {
    ...workColumns(),
    eventCode: text().notNull(),
    eventStatus: smallint().notNull().default(1),
    type: smallint().notNull(),
  },
  (t) => [
    uniqueIndex().on(t.eventCode),
    index('event_order_estate_status_time_idx').on(
      t.companyId,
      t.housingEstateId,
      t.eventStatus,
      t.reportTime.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('event_order_estate_time_idx').on(
      t.companyId,
      t.housingEstateId,
      t.reportTime.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('event_order_estate_type_time_idx').on(
      t.companyId,
      t.housingEstateId,
      t.type,
      t.reportTime.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Status and type together (the work-order screen's tab plus its type filter).
    index('event_order_estate_status_type_time_idx').on(
      t.companyId,
      t.housingEstateId,
      t.eventStatus,
      t.type,
      t.reportTime.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('event_order_estate_house_type_time_idx').on(
      t.companyId,
      t.housingEstateId,
      t.personType,
      t.reportTime.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index().on(t.reportPersonId, t.reportTime.desc().nullsFirst()),
    ...houseIndexes(t),
  ],
);

/**
 * Row counts of complaints and work orders per estate, status, type (0 for complaints) and
 * house type, kept by statement triggers (migration 0001) in the same transaction as the
 * change, so status totals and unfiltered list totals never count a million rows.
 */
export const workTotal = pgTable(
  'work_total',
  {
    kind: text().notNull(),
    companyId: integer().notNull(),
    housingEstateId: integer().notNull(),
    status: smallint().notNull(),
    type: smallint().notNull(),
    personType: smallint().notNull(),
    n: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.housingEstateId, t.status, t.type, t.personType] })],
);

/** A reply on a complaint or work order; companyType null = the resident replied. */
const replyColumns = () => ({
  id: id(),
  ...tenantColumns(),
  personId: integer().notNull(),
  content: text().notNull(),
  img: text(),
  voice: text(),
  companyType: smallint(),
  replyTime: createdAt(),
});

export const complainReply = pgTable('complain_reply', { ...replyColumns(), complainId: integer().notNull() }, (t) => [
  index().on(t.complainId, t.replyTime, t.id),
]);

export const eventReply = pgTable('event_reply', { ...replyColumns(), eventOrderId: integer().notNull() }, (t) => [
  index().on(t.eventOrderId, t.replyTime, t.id),
]);
