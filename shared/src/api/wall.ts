import { z } from 'zod';
import { SosCallSchema, WarnRowSchema } from './disaster';
import { defineEndpoints } from './endpoint';

// The read-only wall screen (issue 22): one call that answers everything the screen shows, so a
// screen that reconnects catches up in one read.

/** Unfinished requests of one kind: untreated and processing. */
export const WallCountsSchema = z.object({ untreated: z.number(), processing: z.number() });
export type WallCounts = z.infer<typeof WallCountsSchema>;

/** How many rows the feed holds at most, of each kind (a screen that runs for days stays bounded). */
export const WALL_FEED_LIMITS = { sos: 100, warnings: 20 } as const;
/** Warnings older than this leave the wall. */
export const WALL_WARNING_DAYS = 7;

export const WallFeedSchema = z.object({
  /** SOS calls not closed: unacknowledged first (oldest first), then acknowledged; at most WALL_FEED_LIMITS.sos. */
  sos: z.array(SosCallSchema),
  /** How many calls are not closed (may exceed the list). */
  sosTotal: z.number(),
  /** Disaster warnings not revoked from the last WALL_WARNING_DAYS days, newest first. */
  warnings: z.array(WarnRowSchema),
  complaints: WallCountsSchema,
  eventOrders: WallCountsSchema,
  /** When the api read all this (ISO). */
  readAt: z.string(),
});
export type WallFeed = z.infer<typeof WallFeedSchema>;

export const wallEndpoints = /* @__PURE__ */ defineEndpoints({
  'GET /wall/feed': {
    permission: 'wall:view',
    summary:
      "The wall screen's whole picture, read-only: open SOS calls, recent disaster warnings, untreated and processing complaints and work orders. A wall screen reads it on every (re)connect and after every alarm or work-order event, so it never misses an alarm.",
    response: WallFeedSchema,
  },
});
