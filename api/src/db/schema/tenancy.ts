import { index, integer, jsonb, pgTable, smallint, text } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantColumns, time } from './columns';

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
    // The estate's own settings (basic set-up, issue 33). Null: the environment's default applies
    // (DEFAULT_LANGUAGE, SOS_REANNOUNCE_MS, ANNOUNCEMENT_REMINDER_UNIT_MS), read where it is used
    // (modules/estate-settings: estateSettings()), so a change takes effect without a restart.
    /** An upload path of the estate's logo (the console's sidebar). */
    logo: text(),
    /** en | zh-CN | zh-TW: the language of accounts created from now on. */
    defaultLanguage: text(),
    /** An unacknowledged SOS call is announced again after this many seconds. */
    sosReannounceSeconds: integer(),
    /** One unit of a vote's reminder interval, in ms (60 000, 3 600 000 or 86 400 000). */
    voteReminderUnitMs: integer(),
    settingsUpdatedAt: time(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.companyId)],
);

/** Every change of an estate's settings: who, when, the settings before and after (same transaction). */
export const estateSettingsChange = pgTable(
  'estate_settings_change',
  {
    id: id(),
    ...tenantColumns(),
    personId: integer().notNull(),
    before: jsonb().$type<Record<string, unknown>>().notNull(),
    after: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.housingEstateId, t.createdAt.desc().nullsFirst())],
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
