import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantColumns, time } from './columns';

export interface ImageRef {
  url: string;
}

/** A person: staff or resident. images[0].url is the avatar; accountType: AccountType. */
export const person = pgTable(
  'person',
  {
    id: id(),
    ...tenantColumns(),
    name: text().notNull(),
    gender: smallint().notNull().default(1),
    images: jsonb().$type<ImageRef[]>().notNull().default([]),
    tel: text(),
    email: text(),
    accountType: smallint().notNull().default(4),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.housingEstateId, t.name)],
);

/**
 * A person's link to a unit, parking space or shop (houseType: HouseType, one of the three ids set).
 * identity: Identity, relation: Relation for relatives and friends; authStatus: AuthStatus;
 * status: 1 pending review, 2 approved, 3 refused.
 */
export const personHouse = pgTable(
  'person_house',
  {
    id: id(),
    ...tenantColumns(),
    personId: integer().notNull(),
    houseType: smallint().notNull(),
    unitId: integer(),
    carSpaceId: integer(),
    shopId: integer(),
    identity: smallint().notNull(),
    relation: smallint(),
    authStatus: smallint().notNull().default(1),
    status: smallint().notNull().default(2),
    houseCertCode: text(),
    houseCertImg: text(),
    joinTime: time().notNull().defaultNow(),
    /** Why staff refused the request (status 3); the resident reads it through GET /app/personhouse/requests. */
    refuseReason: text(),
  },
  (t) => [
    index().on(t.personId),
    index().on(t.unitId),
    index().on(t.carSpaceId),
    index().on(t.shopId),
    index().on(t.housingEstateId, t.status, t.houseType, t.joinTime.desc().nullsFirst()),
    // The owner-review list over every house type, newest first.
    index().on(t.housingEstateId, t.status, t.joinTime.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // One approved owner per house (SPEC §4 owner change), also when two staff certify at once.
    uniqueIndex('person_house_one_owner_unit')
      .on(t.unitId)
      .where(sql`identity = 1 and status = 2`),
    uniqueIndex('person_house_one_owner_space')
      .on(t.carSpaceId)
      .where(sql`identity = 1 and status = 2`),
    uniqueIndex('person_house_one_owner_shop')
      .on(t.shopId)
      .where(sql`identity = 1 and status = 2`),
  ],
);

/**
 * person_house counts per estate, house type and status, kept by statement triggers on
 * person_house (hand-written SQL of migration 0011_owner_review_totals) in the same transaction as the
 * change, so the owner-review tabs and the certified tab's total never count 200,000 links.
 * Rows whose counts reach 0 stay (harmless).
 */
export const personHouseTotal = pgTable(
  'person_house_total',
  {
    companyId: integer().notNull(),
    housingEstateId: integer().notNull(),
    houseType: smallint().notNull(),
    status: smallint().notNull(),
    n: integer().notNull(),
  },
  (t) => [
    primaryKey({
      name: 'person_house_total_pk',
      columns: [t.companyId, t.housingEstateId, t.houseType, t.status],
    }),
  ],
);

/** Past and changed links: join, leave, who did it (operatorPersonId) and how (OperationType). */
export const personHouseHistory = pgTable(
  'person_house_history',
  {
    id: id(),
    ...tenantColumns(),
    personId: integer().notNull(),
    houseType: smallint().notNull(),
    unitId: integer(),
    carSpaceId: integer(),
    shopId: integer(),
    identity: smallint().notNull(),
    purchaseTime: time(),
    leaveTime: time(),
    operatorPersonId: integer(),
    operationType: smallint().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.housingEstateId, t.houseType, t.createdAt.desc().nullsFirst()),
    index().on(t.personId),
    // The history staff of one house, newest departure first (POST /base/personhousehistory/page).
    index().on(t.unitId, t.leaveTime.desc()),
    index().on(t.carSpaceId, t.leaveTime.desc()),
    index().on(t.shopId, t.leaveTime.desc()),
  ],
);

export const department = pgTable(
  'department',
  {
    id: id(),
    ...tenantColumns(),
    name: text().notNull(),
    parentId: integer(),
    principalPersonId: integer(),
    sort: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.housingEstateId, t.sort)],
);

/** The unique index of a staff number in its estate (its violation: enterprise.errors.staffNumberTaken). */
export const STAFF_NUMBER_UNIQUE = 'person_company_staff_number_unique';

/** A person's employment by the company (SPEC "personCompany"): staff number, position, department. */
export const personCompany = pgTable(
  'person_company',
  {
    id: id(),
    ...tenantColumns(),
    personId: integer().notNull(),
    staffNumber: text(),
    position: text(),
    yearOfBirth: integer(),
    departmentId: integer(),
    companyType: smallint().notNull().default(2),
    createdAt: createdAt(),
    /**
     * What the staff list's keyword is matched against: staff number, the person's name and tel,
     * and position, lower-cased (`lower(concat_ws(chr(31), …))`), one trigram-indexed column. Kept by
     * triggers of person_company and person (migration staff_search_triggers), never written by the api.
     */
    search: text(),
  },
  (t) => [
    uniqueIndex().on(t.companyId, t.personId),
    // A staff number names one staff member of the estate, whatever the case (the staff form and
    // the import check it first; this refuses the one of two concurrent writers that checked too early).
    uniqueIndex(STAFF_NUMBER_UNIQUE).on(t.companyId, t.housingEstateId, sql`lower(${t.staffNumber})`),
    index().on(t.housingEstateId, t.departmentId),
    // The person trigger's lookup (a person renamed: their employments' search text).
    index().on(t.personId),
  ],
);
