// The rules of an estate's own settings and its ads (issue 33), without zod: the api's schemas
// (api/estate-settings.ts, api/ads.ts) and the console's forms both check with these.

/**
 * The length of one unit of a vote's reminder interval ("remind every N hours"), by name. The
 * environment's ANNOUNCEMENT_REMINDER_UNIT_MS (an hour) is the default of an estate that chose none.
 */
export const VOTE_REMINDER_UNITS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
export type VoteReminderUnit = keyof typeof VOTE_REMINDER_UNITS;

/** The unit named by a length in ms, or null for another length (a test's shortened unit). */
export function voteReminderUnitOf(ms: number): VoteReminderUnit | null {
  const found = (Object.entries(VOTE_REMINDER_UNITS) as [VoteReminderUnit, number][]).find(([, v]) => v === ms);
  return found ? found[0] : null;
}

/** How soon an SOS call nobody acknowledged is announced again, in seconds, as an estate may set it. */
export const SOS_REANNOUNCE_SECONDS = { min: 10, max: 3600 } as const;

/** Whether this JavaScript knows the IANA time zone name (`Asia/Hong_Kong`, `UTC`). */
export function isTimeZoneName(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Screens of the resident app an ad may open (`app://<screen>`): the screens its resident API
 * serves (DESIGN §5). Labels: `ads.screens.<screen>` in locales.
 */
export const RESIDENT_APP_SCREENS = [
  'home',
  'announcements',
  'complaint',
  'repair',
  'sos',
  'warnings',
  'houses',
  'join-house',
  'chat',
] as const;
export type ResidentAppScreen = (typeof RESIDENT_APP_SCREENS)[number];

/** The scheme of a jump link to a screen of the resident app. */
export const APP_LINK_PREFIX = 'app://';

/** What a jump link opens: a web page (http or https) or a screen of the resident app. */
export type AdLinkTarget = { kind: 'web'; url: string } | { kind: 'app'; screen: ResidentAppScreen };

/**
 * Reads an ad's jump link: `http://…` or `https://…` with a host (a web page the app opens), or
 * `app://<screen>` naming one of {@link RESIDENT_APP_SCREENS}. Anything else (`javascript:`,
 * `data:`, `file:`, a relative path, an unknown screen) is null: the app would run it or fail.
 */
export function readAdLink(link: string): AdLinkTarget | null {
  const value = link.trim();
  if (value.length === 0 || value.length > 500 || /\s/.test(value)) return null;
  if (value.toLowerCase().startsWith(APP_LINK_PREFIX)) {
    const screen = value.slice(APP_LINK_PREFIX.length) as ResidentAppScreen;
    return RESIDENT_APP_SCREENS.includes(screen) ? { kind: 'app', screen } : null;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null;
  if (!/^https?:\/\//i.test(value)) return null; // `http:example.com` parses, but is no link to give out
  return { kind: 'web', url: value };
}

/** A calendar day `yyyy-MM-dd` (the ad's period: days of the estate's time zone, both included). */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value);
}
