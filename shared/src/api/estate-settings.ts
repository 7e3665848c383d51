import { z } from 'zod';
import { LANGUAGES } from '../enums';
import { isTimeZoneName, SOS_REANNOUNCE_SECONDS, VOTE_REMINDER_UNITS } from '../estate-setup';
import { intSchema } from './common';
import { defineEndpoints } from './endpoint';

// The estate's own settings, "basic set-up" of SPEC §2 (issue 33). What was an environment
// variable (ADMIN_TIME_ZONE, SOS_REANNOUNCE_MS, ANNOUNCEMENT_REMINDER_UNIT_MS) is the default of
// an estate that set nothing; a setting takes effect at once, in every api process (each reads the
// estate's row when it needs it), and reaches open consoles through the `estate` live topic.

/** Settings an estate may leave to the environment's default (null in a change = back to the default). */
export const DEFAULTABLE_SETTINGS = ['defaultLanguage', 'sosReannounceSeconds', 'voteReminderUnitMs'] as const;
export type DefaultableSetting = (typeof DEFAULTABLE_SETTINGS)[number];

/** The estate's settings as they apply now (its own, or the default where it set none). */
export const EstateInfoSchema = z.object({
  housingEstateId: z.number(),
  name: z.string(),
  address: z.string().nullable(),
  /** An upload path (`/upload/files/…`, under `/api` through the gateway); null: no logo. */
  logo: z.string().nullable(),
  /** IANA time zone: the estate's days and times (charts, day filters, the console's clock). */
  timeZone: z.string(),
  /** The language of accounts created in the estate from now on. */
  defaultLanguage: z.enum(LANGUAGES),
  /** An SOS call nobody acknowledged is announced again after this many seconds, and again every such interval. */
  sosReannounceSeconds: z.number(),
  /** The length of one unit of a vote's reminder interval, in ms (an hour: "remind every N hours"). */
  voteReminderUnitMs: z.number(),
});
export type EstateInfo = z.infer<typeof EstateInfoSchema>;

export const EstateDefaultsSchema = z.object({
  timeZone: z.string(),
  defaultLanguage: z.enum(LANGUAGES),
  sosReannounceSeconds: z.number(),
  voteReminderUnitMs: z.number(),
});
export type EstateDefaultsInfo = z.infer<typeof EstateDefaultsSchema>;

/** The settings screen's read: the settings, the defaults, which follow the default, the last change. */
export const EstateSettingsSchema = EstateInfoSchema.extend({
  /** The environment's values (ADMIN_TIME_ZONE for a new estate, DEFAULT_LANGUAGE, SOS_REANNOUNCE_MS, ANNOUNCEMENT_REMINDER_UNIT_MS). */
  defaults: EstateDefaultsSchema,
  /** The settings this estate leaves to the default: they follow it if the environment changes. */
  inherited: z.array(z.enum(DEFAULTABLE_SETTINGS)),
  /** When the settings last changed (ISO), and by whom; send it back as `version` with a change. */
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type EstateSettings = z.infer<typeof EstateSettingsSchema>;

const reminderUnit = z.number().refine((v) => (Object.values(VOTE_REMINDER_UNITS) as number[]).includes(v), {
  message: 'estateSettings.errors.reminderUnit',
});

/**
 * A change of the settings: only the fields sent change. `logo` null removes it; null for a
 * setting of DEFAULTABLE_SETTINGS returns it to the environment's default. `version` (the
 * `updatedAt` the form was read with) refuses a change made on settings someone changed since (409).
 */
export const EstateSettingsUpdateSchema = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  address: z.string().trim().max(200).nullable().optional(),
  /** An image the estate's staff uploaded (`POST /upload/uploadimage/logo`), or the current logo. */
  logo: z.string().trim().min(1).max(500).nullable().optional(),
  timeZone: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .refine(isTimeZoneName, { message: 'estateSettings.errors.timeZone' })
    .optional(),
  defaultLanguage: z.enum(LANGUAGES).nullable().optional(),
  sosReannounceSeconds: intSchema(SOS_REANNOUNCE_SECONDS.min, SOS_REANNOUNCE_SECONDS.max).nullable().optional(),
  voteReminderUnitMs: reminderUnit.nullable().optional(),
  version: z.string().max(40).nullable().optional(),
});
export type EstateSettingsUpdate = z.infer<typeof EstateSettingsUpdateSchema>;

export const estateSettingsEndpoints = /* @__PURE__ */ defineEndpoints({
  'GET /base/estate/info': {
    permission: 'authenticated',
    summary:
      "The caller's estate as its settings stand now: name, address, logo, time zone, language of new accounts, SOS re-announcement (s), vote reminder unit (ms). Every staff console reads it at sign-in (sidebar logo, the estate's clock); residents may read it too. Changes arrive live on the `estate` topic.",
    response: EstateInfoSchema,
  },
  'GET /base/estate/settings': {
    permission: 'estate:settings',
    summary:
      'The basic set-up screen: the settings, the environment defaults, which settings follow the default, and when and by whom they last changed.',
    response: EstateSettingsSchema,
  },
  'POST /base/estate/update': {
    permission: 'estate:settings',
    summary:
      "Changes the estate's settings (only the fields sent), at once and without a restart: a new time zone recounts the per-day counters; a new SOS interval or reminder unit applies to the next check. Before and after are recorded with who and when. Open consoles of the estate's staff receive the new settings (topic `estate`). 409 when `version` is not the last change's time.",
    body: EstateSettingsUpdateSchema,
    response: EstateSettingsSchema,
    successMessage: 'estateSettings.saved',
  },
});
