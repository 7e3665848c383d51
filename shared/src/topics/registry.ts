import type { Permission } from '../permissions';
import { access } from './access';
import { alarms } from './alarms';
import { announcements } from './announcements';
import { chat } from './chat';
import { checkin } from './checkin';
import type {
  AnyTopic,
  CounterValues,
  MessageTypeSpec,
  ToastSpec,
  TopicDefinition,
  TopicEvent,
  ViewTarget,
} from './define-topic';
import { deriveTopics } from './derive';
import { estate } from './estate';
import { residents } from './residents';
import { session } from './session';
import { workorders } from './workorders';

/**
 * Every live topic of DESIGN §3, in the order tabs list them. Adding a topic is its file in this
 * folder and one line here; everything below is derived from the definitions.
 */
export const LIVE_TOPICS = [
  alarms,
  workorders,
  chat,
  residents,
  announcements,
  session,
  estate,
  checkin,
  access,
] as const;

type Definitions = (typeof LIVE_TOPICS)[number];
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The typed topics of DESIGN §3 that the gateway delivers to tabs. */
export type Topic = Definitions['name'];
type DefinitionOf<T extends Topic> = Extract<Definitions, { name: T }>;
type Parts<D> =
  D extends TopicDefinition<infer N, infer F, infer P, infer C, infer M, infer S>
    ? { name: N; fields: F; payload: P; channels: C; messages: M; shape: S }
    : never;

/** The fields the api pushes with a topic's events (its typed payload). */
export type PayloadOf<T extends Topic> = Parts<DefinitionOf<T>>['payload'];
/** The upstream event numbers a topic takes. */
export type ChannelOf<T extends Topic> = ValuesOf<Parts<DefinitionOf<T>>['channels']>;
type ValuesOf<C> = C extends unknown ? C[keyof C] : never;
/** The notification message types a topic's events carry. */
export type MessageTypeOf<T extends Topic> = TypesOf<Parts<DefinitionOf<T>>['messages']>;
type TypesOf<M> = M extends unknown
  ? { [K in keyof M]: M[K] extends MessageTypeSpec ? M[K]['type'] : never }[keyof M]
  : never;
/** One topic's event as tabs receive it. */
export type EventOf<T extends Topic> = TopicEvent<T, Parts<DefinitionOf<T>>['fields'], PayloadOf<T>>;

/** The discriminated union every tier uses for live events (discriminate on `topic`, then `kind`). */
export type LiveEvent = { [T in Topic]: EventOf<T> }[Topic];

/**
 * What the api pushes for a topic (the upstream message before it is numbered): one of the
 * topic's event numbers, its message types and its payload. The api's notify and push functions
 * take this type, so a payload the client would not read is a compile error.
 */
export type TopicPush = {
  [T in Topic]: {
    channelType: ChannelOf<T>;
    messageType?: MessageTypeOf<T>;
    messageId?: number;
    dataId?: number;
  } & PayloadOf<T>;
}[Topic];

const derived = deriveTopics(LIVE_TOPICS as readonly AnyTopic[]);

/** The topic names, in registry order. */
export const TOPICS = derived.names as readonly Topic[];

/** Permissions that allow subscribing to a topic (any one of them); null = always allowed. */
export const TOPIC_PERMISSIONS = derived.permissions as Record<Topic, Permission[] | null>;

/** Topics a person holding these permissions may subscribe to. */
export function allowedTopics(perms: ReadonlySet<string>): Topic[] {
  return TOPICS.filter((t) => {
    const need = TOPIC_PERMISSIONS[t];
    return need === null || need.some((p) => perms.has(p));
  });
}

/** Real-time event numbers of SPEC §7 (the api's upstream `channelType`), by name, from every topic. */
export const TOPIC_CHANNELS = derived.channels as UnionToIntersection<Parts<Definitions>['channels']>;

type MessageNames<M> = { [K in keyof M]: M[K] extends MessageTypeSpec ? M[K]['type'] : never };
/** Notification message types of SPEC §9, by name, from every topic. */
export const MessageType = derived.messageTypeNames as UnionToIntersection<
  MessageNames<Parts<Definitions>['messages']>
>;
export type MessageType = MessageTypeOf<Topic>;

/** Every notification message type a topic takes: the ones the live counters count unread. */
export const LIVE_MESSAGE_TYPES = derived.liveMessageTypes as MessageType[];
/** Types listed in the message panel (SPEC §9). */
export const MESSAGE_PANEL_TYPES = derived.panelTypes as MessageType[];
/** Types counted by the message bell's unread counter (SPEC §9). */
export const MESSAGE_COUNTER_TYPES = derived.counterTypes as MessageType[];
/** Types listed and counted by the alarm bell. */
export const ALARM_TYPES = derived.alarmTypes as MessageType[];

/** The topic a notification message type belongs to (for panels and counters). */
export const topicOfMessageType = derived.topicOfMessageType as (messageType: number) => Topic | null;

/** What "View" on a notification of this type opens, and the permission it needs; null for none. */
export const messageViewTarget: (messageType: number) => ViewTarget | null = derived.viewTarget;

/** Where View goes: the screen, with the record open (`?open=` of the list kit) when it is about one. */
export function messageViewLink(target: ViewTarget, dataId: number | null | undefined): string {
  return target.opensRecord && dataId ? `${target.path}?open=${dataId}` : target.path;
}

/** The toast a tab shows for an event (its topic's `toast`), or null for none. */
export const toastFor = derived.toast as (e: LiveEvent) => ToastSpec | null;

/**
 * Turns one upstream message into its typed event: the topic of its event number classifies it.
 * Heartbeats and numbers no topic takes give null (SPEC §7: unknown event numbers are logged as
 * warnings and dropped by the caller).
 */
export const normalizeUpstream = derived.normalize as (
  message: { channelType: number | 'heartbeat' } & Record<string, unknown>,
) => LiveEvent | null;

/** Every topic's counter schema builders together, by snapshot key. */
export type TopicCounterShape = UnionToIntersection<Parts<Definitions>['shape']>;
/** The schema builders of every topic's counters together (`live-schemas.ts` builds the snapshot schema from them). */
export const TOPIC_COUNTER_SHAPE = derived.counterShape as TopicCounterShape;
/** Every topic's counters at zero. */
export const zeroTopicCounters = derived.zeroCounters as () => CounterValues<TopicCounterShape>;
/** Applies an event to its topic's own counters in `next`, a copy of the snapshot (changed in place). */
export const applyTopicCounters = derived.applyCounters as (next: object, e: LiveEvent) => void;

/**
 * The counters a person holding these permissions may see: a topic's own counters (chat unread,
 * complaint and work-order totals …) count as zero when the person may not receive the topic
 * (issue 30: after an access change, the badges of a topic taken away disappear). Unread
 * messages by type stay: they are the person's own messages, which the message panel lists.
 */
export function visibleCounters<C extends object>(counters: C, perms: ReadonlySet<string>): C {
  const allowed = new Set<string>(allowedTopics(perms));
  const zeros = derived.zeroCountersByTopic;
  const hidden = Object.keys(zeros).filter((t) => !allowed.has(t));
  if (hidden.length === 0) return counters;
  return Object.assign({ ...counters }, ...hidden.map((t) => zeros[t]()));
}
