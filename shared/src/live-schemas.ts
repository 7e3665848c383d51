import { z } from 'zod';
import { TOPIC_COUNTER_SHAPE, type TopicCounterShape } from './topics/registry';
import { statusTotalsSchema } from './topics/workorders';

// The zod schemas of the live state, for the tiers that validate it (api, gateway). Only this
// module builds them: the client imports the live helpers of events.ts and never loads zod.

/** Untreated / processing / completed totals of complaints or work orders. */
export const StatusTotalsSchema = statusTotalsSchema(z);

/**
 * One message on the upstream WebSocket (api → gateway). `channelType` picks the handler;
 * notification pushes also carry the `messageType` and `messageId` of the stored message.
 * Other fields depend on the event and travel on unchanged in `payload`.
 */
export const UpstreamMessageSchema = z
  .object({
    channelType: z.union([z.number().int(), z.literal('heartbeat')]),
    messageType: z.number().int().optional(),
    messageId: z.number().int().optional(),
    dataId: z.number().int().optional(),
    /**
     * The push's number in the recipient's sequence (the api's push journal); on a resuming
     * connection's first heartbeat, the number the stream continues after. Transport only: it
     * never reaches a tab.
     */
    pushSeq: z.number().int().optional(),
  })
  .passthrough();
export type UpstreamMessage = z.infer<typeof UpstreamMessageSchema>;

/** Every topic's counter schemas (its `counters.shape` builders applied to zod). */
const topicCounterSchemas = Object.fromEntries(
  Object.entries(TOPIC_COUNTER_SHAPE).map(([key, schema]) => [key, schema(z)]),
) as { [K in keyof TopicCounterShape]: ReturnType<TopicCounterShape[K]> };

/**
 * A person's live state: what the top bar and sidebar show. The gateway holds it per person,
 * sends it as 'snapshot' on connect and after each reconciliation, and both the gateway and
 * the client apply events to it with `applyEvent` (events.ts).
 */
export const LiveSnapshotSchema = z.object({
  /** Unread notification messages by message type (keys are the numbers as strings). */
  unreadByType: z.record(z.string(), z.number().int()),
  /** Each topic's counters (chat unread, complaint and work-order totals …): topics/registry.ts. */
  ...topicCounterSchemas,
  /** Increases with every change the gateway makes; a tab ignores older snapshots. */
  version: z.number().int(),
});
export type LiveSnapshot = z.infer<typeof LiveSnapshotSchema>;
/** The snapshot without its version: what the api counts. */
export type Counters = Omit<LiveSnapshot, 'version'>;

/**
 * A person's counters as the api answers them for the gateway (`GET /realtime/counters`): read in
 * one database snapshot, as of the person's push `pushSeq` — every push numbered up to it is
 * counted, none after it.
 */
export const LiveCountersSchema = LiveSnapshotSchema.omit({ version: true }).extend({ pushSeq: z.number().int() });
export type LiveCounters = z.infer<typeof LiveCountersSchema>;

/** Who a token belongs to, for the gateway (`GET /realtime/identity`). */
export const LiveIdentitySchema = z.object({
  personId: z.number().int(),
  accId: z.number().int(),
  roleValue: z.string(),
  /** The permission codes the person holds (every code for role ADMIN). */
  perms: z.array(z.string()),
  /** When the token expires (ISO 8601): the gateway drops the token's tabs then. */
  expiresAt: z.string(),
  /**
   * A wall screen's session, which renews itself while in use: the gateway asks again before
   * `expiresAt` (past half its life the api moves it) instead of ending the tabs then.
   */
  renews: z.boolean().optional(),
});
export type LiveIdentity = z.infer<typeof LiveIdentitySchema>;

/** At most this many tokens in one `POST /realtime/identities`. */
export const IDENTITY_BATCH_MAX = 100;

/** The tokens of `POST /realtime/identities`: 1 to IDENTITY_BATCH_MAX, each as a Bearer would carry it. */
export const TokensBatchSchema = z.object({
  tokens: z.array(z.string().min(1).max(200)).min(1).max(IDENTITY_BATCH_MAX),
});

/** The answer of `POST /realtime/identities`: one per token, in order, null for a token that is not valid. */
export const LiveIdentitiesSchema = z.object({ identities: z.array(LiveIdentitySchema.nullable()) });
export type LiveIdentities = z.infer<typeof LiveIdentitiesSchema>;
