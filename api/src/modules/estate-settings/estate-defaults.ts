import { parseLanguage, type Language } from '@pm/shared';

/**
 * What an estate's settings are when it set none (issue 33): the environment variables that held
 * them before, read once when the api starts (README "Configuration").
 */
export interface EstateDefaults {
  /** ADMIN_TIME_ZONE: the time zone of an estate created without one (the first administrator's). */
  timeZone: string;
  /** DEFAULT_LANGUAGE: the language of new accounts. */
  defaultLanguage: Language;
  /** SOS_REANNOUNCE_MS: an SOS call nobody acknowledged is announced again after this long. */
  sosReannounceMs: number;
  /** ANNOUNCEMENT_REMINDER_UNIT_MS: one unit of a vote's reminder interval. */
  voteReminderUnitMs: number;
}

const positive = (value: string | undefined): number | undefined => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/** The defaults from the environment (`process.env` unless given), with what a caller overrides. */
export function estateDefaultsFrom(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<EstateDefaults> = {},
): EstateDefaults {
  return {
    timeZone: env.ADMIN_TIME_ZONE || 'UTC',
    defaultLanguage: parseLanguage(env.DEFAULT_LANGUAGE) ?? 'en',
    sosReannounceMs: positive(env.SOS_REANNOUNCE_MS) ?? 60_000,
    voteReminderUnitMs: positive(env.ANNOUNCEMENT_REMINDER_UNIT_MS) ?? 3_600_000,
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
  };
}
