import { proxy, ref } from 'valtio';
import type { WallFeed } from '@pm/shared';
import { newKeys, wallItems, type WallItem } from '../utils/wallItems';

/**
 * What the wall screen shows (issue 22): the last feed the api answered, its rows, which rows
 * arrived with the last reading (they flash), and which live snapshot the reading belongs to.
 * Every reading REPLACES the previous one, so nothing grows while the screen runs for days.
 */
export const wallFeed = proxy<{
  feed: WallFeed | null;
  items: WallItem[];
  /**
   * Keys of rows that arrived within the last WALL_FRESH_MS (a new alarm): they flash. Kept across
   * readings, so a second reading right after a reconnect (the snapshot that follows the catch-up)
   * does not take the flash off the calls raised while the screen was offline.
   */
  fresh: string[];
  /**
   * True from a connection loss (and from the start) until a reading started after the
   * (re)connect and its snapshot arrived: until then the figures may miss what happened meanwhile.
   */
  behind: boolean;
  /** When the reading arrived (ms since 1970). */
  loadedAt: number | null;
}>({ feed: null, items: [], fresh: [], behind: true, loadedAt: null });

/** How long a new alarm stays marked fresh (its flash animation lasts about 6 s of it). */
export const WALL_FRESH_MS = 60_000;
/** When each fresh key arrived; outside the proxy: nothing renders from it. */
const freshSince = new Map<string, number>();

/**
 * Takes a reading of the api; answers the keys of alarms that are new since the previous
 * reading (none on the first one: those were there before the screen opened): they sound once.
 */
export function receiveWallFeed(feed: WallFeed, caughtUp: boolean, now: number = Date.now()): string[] {
  const known = wallFeed.feed ? new Set(wallFeed.items.map((i) => i.key)) : null;
  const items = wallItems(feed);
  const fresh = newKeys(known, items);
  const present = new Set(items.map((i) => i.key));
  for (const [key, since] of freshSince) if (now - since >= WALL_FRESH_MS || !present.has(key)) freshSince.delete(key);
  for (const key of fresh) freshSince.set(key, now);
  // ref(): the rows are replaced whole, never edited; no deep proxy to build for each reading.
  wallFeed.feed = ref(feed);
  wallFeed.items = ref(items);
  wallFeed.fresh = [...freshSince.keys()];
  if (caughtUp) wallFeed.behind = false;
  wallFeed.loadedAt = now;
  return fresh;
}

/** Signed out or left: nothing kept. */
export function resetWallFeed(): void {
  freshSince.clear();
  Object.assign(wallFeed, { feed: null, items: [], fresh: [], behind: true, loadedAt: null });
}

/** The connection was lost or (re)made: what is shown may miss changes until the next catch-up reading. */
export function wallFeedBehind(): void {
  wallFeed.behind = true;
}
