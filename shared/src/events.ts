import {
  ALARM_TYPES,
  MESSAGE_COUNTER_TYPES,
  TOPIC_CHANNELS,
  applyTopicCounters,
  zeroTopicCounters,
  type EventOf,
  type LiveEvent,
  type Topic,
  type TopicPush,
} from './topics/registry';
import type { Counters, LiveSnapshot, UpstreamMessage } from './live-schemas';

export * from './topics/registry';
export type { RawMessage, ToastSpec, ViewTarget } from './topics/define-topic';
export type { StatusTotals, WorkOrderPayload } from './topics/workorders';
export { joinMessageType, exitMessageType, type ResidentPayload } from './topics/residents';
export { SOS_RECIPIENT_PERMISSIONS, type AlarmPayload } from './topics/alarms';
export type { ChatPayload } from './topics/chat';
export type { AnnouncementPayload } from './topics/announcements';
export type { SessionPayload } from './topics/session';
export type { EstatePayload } from './topics/estate';
export type { CheckinPayload } from './topics/checkin';
export type { AccessPayload } from './topics/access';
// The zod schemas live in their own module, which the client never loads (it validates nothing live).
export {
  IDENTITY_BATCH_MAX,
  LiveCountersSchema,
  LiveIdentitiesSchema,
  LiveIdentitySchema,
  LiveSnapshotSchema,
  StatusTotalsSchema,
  UpstreamMessageSchema,
  type Counters,
  type LiveCounters,
  type LiveIdentity,
  type LiveIdentities,
  type LiveSnapshot,
  type UpstreamMessage,
} from './live-schemas';

/**
 * Real-time event numbers of SPEC §7 (the api's upstream `channelType`): every topic's, plus
 * `countersChanged`, this api's own number for a push that only moves counters.
 */
export const ChannelType = { ...TOPIC_CHANNELS, countersChanged: 3900 } as const;
export type ChannelType = (typeof ChannelType)[keyof typeof ChannelType];

export type AlarmEvent = EventOf<'alarms'>;
export type WorkOrderEvent = EventOf<'workorders'>;
export type ChatEvent = EventOf<'chat'>;
export type ResidentEvent = EventOf<'residents'>;
export type AnnouncementEvent = EventOf<'announcements'>;
export type SessionEvent = EventOf<'session'>;
export type AccessEvent = EventOf<'access'>;

/** Counter changes a push can carry: unread messages by type, and every topic's number counters. */
export type CounterDelta = {
  unreadByType?: Record<string, number>;
} & { [K in keyof Counters as Counters[K] extends number ? K : never]?: number };

/**
 * A push that only moves the person's counters (a message read, a chat marked read), numbered
 * like every other push. It never reaches a tab as an event and never shows a toast: the gateway
 * applies it and sends the tabs the new snapshot.
 */
export type CountersPush = { channelType: typeof ChannelType.countersChanged } & CounterDelta;
export interface CountersChangedEvent {
  topic: null;
  channelType: typeof ChannelType.countersChanged;
  change: CounterDelta;
}

/** Everything the api pushes upstream: a topic's event or a counters change. */
export type UpstreamPush = TopicPush | CountersPush;

/** The counters change of an upstream message, or null when it is something else. */
export function countersChangeOf(message: UpstreamMessage): CountersChangedEvent | null {
  if (message.channelType !== ChannelType.countersChanged) return null;
  const { channelType: _c, pushSeq: _s, ...change } = message;
  return { topic: null, channelType: ChannelType.countersChanged, change: change as CounterDelta };
}

/**
 * Response header by which the api tells the gateway that the call revoked the caller's bearer
 * token (sign-out): the gateway ends that token's tabs and strips the header before answering.
 */
export const TOKEN_REVOKED_HEADER = 'x-token-revoked';

export function emptySnapshot(): LiveSnapshot {
  return { unreadByType: {}, ...zeroTopicCounters(), version: 0 };
}

/** The message bell's count (SPEC §9 counter types). */
export function messageCount(s: LiveSnapshot): number {
  return MESSAGE_COUNTER_TYPES.reduce((n, t) => n + (s.unreadByType[t] ?? 0), 0);
}
/** The SOS alarm bell's count. */
export function alarmCount(s: LiveSnapshot): number {
  return ALARM_TYPES.reduce((n, t) => n + (s.unreadByType[t] ?? 0), 0);
}

type CounterValues = Record<string, unknown>;

/**
 * Applies one event to a snapshot and returns the new one (pure). A stored notification
 * (messageId present) raises its type's unread count; the event's topic moves its own counters
 * (its definition's `counters.apply`). A counters change adds its deltas, never below zero.
 */
export function applyEvent(s: LiveSnapshot, e: LiveEvent | CountersChangedEvent): LiveSnapshot {
  // Numbered by the gateway, and the snapshot held already counts it (it overtook the event).
  const version = e.topic === null ? undefined : e.version;
  if (version !== undefined && version <= s.version) return s;
  const next = { ...s, unreadByType: { ...s.unreadByType }, version: version ?? s.version + 1 };
  if (e.topic === null) return applyDelta(next, e.change);
  if (e.messageType !== undefined && e.messageId !== undefined) {
    next.unreadByType[e.messageType] = (next.unreadByType[e.messageType] ?? 0) + 1;
  }
  applyTopicCounters(next, e);
  return next;
}

/**
 * The first snapshot after a (re)connect, brought up to the numbered events that reached the tab
 * before it (issue 35, found by the chaos run): a gateway that does not hold the person's upstream
 * reads the snapshot the holder stored, which can be older than an event the holder published
 * meanwhile; taken as it is, the tab would stay one event behind until the next snapshot. Events
 * the snapshot counts already (version at most its own) and unnumbered changes are left out.
 */
export function snapshotAfterConnect(s: LiveSnapshot, sinceConnect: readonly LiveEvent[]): LiveSnapshot {
  return sinceConnect.reduce((held, e) => (e.version === undefined ? held : applyEvent(held, e)), s);
}

function applyDelta(next: LiveSnapshot, change: CounterDelta): LiveSnapshot {
  for (const [type, d] of Object.entries(change.unreadByType ?? {})) {
    if (next.unreadByType[type] !== undefined) next.unreadByType[type] = Math.max(0, next.unreadByType[type] + d);
  }
  const values = next as unknown as CounterValues;
  for (const [key, d] of Object.entries(change)) {
    if (key !== 'unreadByType' && key !== 'version' && typeof d === 'number' && typeof values[key] === 'number')
      values[key] = Math.max(0, (values[key] as number) + d);
  }
  return next;
}

/** A delta the gateway sends when counters change without an upstream event (a message read in another tab). */
export interface SnapshotPatch {
  unreadByType?: Record<string, number>;
  chatUnread?: number;
  version: number;
}

/** Acknowledgement of 'subscribe' / 'unsubscribe'. */
export interface SubscribeAck {
  topics: Topic[];
  refused: Topic[];
}

/** socket.io events the gateway sends to tabs (DESIGN §3): 'snapshot' and one event per topic. */
export type ServerToClientEvents = {
  [E in 'snapshot' | Topic]: E extends Topic ? (e: EventOf<E>) => void : (s: LiveSnapshot) => void;
};

/** socket.io events tabs send to the gateway. */
export interface ClientToServerEvents {
  subscribe: (topics: Topic[], ack: (a: SubscribeAck) => void) => void;
  unsubscribe: (topics: Topic[], ack: (a: SubscribeAck) => void) => void;
}
