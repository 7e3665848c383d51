import type { SosCall, WallFeed, WarnRow } from '@pm/shared';

/** One row of the wall's alarm feed: an SOS call or a disaster warning. */
export type WallItem =
  | { key: string; kind: 'sos'; at: string; call: SosCall }
  | { key: string; kind: 'warning'; at: string; warning: WarnRow };

/** How many rows the wall shows; the rest are counted ("N more"), so the page stays bounded. */
export const WALL_ROWS = 30;

/**
 * The feed in the order a room reads it: SOS calls nobody acknowledged first (oldest first, as
 * the api answers them), then acknowledged calls and warnings, newest first.
 */
export function wallItems(feed: WallFeed): WallItem[] {
  const sos = feed.sos.map((call): WallItem => ({ key: `sos:${call.id}`, kind: 'sos', at: call.createdAt, call }));
  const warnings = feed.warnings.map((warning): WallItem => ({
    key: `warn:${warning.id}`,
    kind: 'warning',
    at: warning.publishTime,
    warning,
  }));
  const open = sos.filter((i) => i.kind === 'sos' && i.call.state === 'open');
  const rest = [...sos.filter((i) => !open.includes(i)), ...warnings].sort(
    (a, b) => b.at.localeCompare(a.at) || a.key.localeCompare(b.key),
  );
  return [...open, ...rest];
}

/** The keys of `next` that `known` did not hold: alarms that arrived since the last reading. */
export function newKeys(known: ReadonlySet<string> | null, next: readonly WallItem[]): string[] {
  if (known === null) return [];
  return next.filter((i) => !known.has(i.key)).map((i) => i.key);
}
