import { index, integer, pgTable, smallint, text } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantColumns } from './columns';

/** A property company (type 2) or a management committee (type 1), see CompanyType. */
export const company = pgTable('company', {
  id: id(),
  name: text().notNull(),
  companyType: smallint().notNull(),
  contactPerson: text(),
  contactTel: text(),
  address: text(),
  logo: text(),
  createdAt: createdAt(),
});

/** A housing estate managed by a company: the tenant unit every other row is scoped to. */
export const housingEstate = pgTable(
  'housing_estate',
  {
    id: id(),
    companyId: integer().notNull(),
    name: text().notNull(),
    address: text(),
    /**
     * The estate's IANA time zone (e.g. Asia/Hong_Kong): day filters count its days and the
     * console shows its times in it, wherever the staff's browser is.
     */
    timeZone: text().notNull().default('UTC'),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.companyId)],
);

/** Service hotlines shown to residents (enterprise profile). */
export const hotline = pgTable(
  'hotline',
  {
    id: id(),
    ...tenantColumns(),
    name: text().notNull(),
    tel: text().notNull(),
    sort: integer().notNull().default(0),
  },
  (t) => [index().on(t.housingEstateId, t.sort)],
);
