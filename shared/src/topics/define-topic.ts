import type { z } from 'zod';
import type { Permission } from '../permissions';

/** One upstream message as a topic sees it: the raw numbers and the fields the api pushed with them. */
export interface RawMessage {
  channelType: number;
  messageType?: number;
  messageId?: number;
  dataId?: number;
  [field: string]: unknown;
}

/** Where "View" on a notification of this message type leads, and the permission it needs (SPEC §6). */
export interface ViewTarget {
  perm: Permission;
  /** The client route. */
  path: string;
  /** The message is about one record of that screen (its `dataId`): the screen opens it (`?open=`). */
  opensRecord: boolean;
}

/** A notification message type of the topic (SPEC §9). */
export interface MessageTypeSpec {
  type: number;
  /** Which bell lists it: the message panel or the alarm panel. */
  panel: 'messages' | 'alarms';
  /** Counted by its bell's unread badge (SPEC §9 counts some listed types only). */
  counted: boolean;
  view: ViewTarget;
}

/** What a tab shows for an event: a toast, described as data so that every client shows it alike. */
export interface ToastSpec {
  level: 'info' | 'warning';
  /** Translation key of the text, or the text itself when `text` is set. */
  key?: string;
  text?: string;
  /** Translation key and values of a title line. */
  title?: { key: string; values: Record<string, string> };
  ms?: number;
  /** Toasts with one key replace each other; a tab's own action with this key shows no second toast. */
  echoKey?: string;
  /** The client route a click on the toast opens. */
  opens?: string;
}

/**
 * Builds one counter's zod schema from the zod it is given. Topic files never import zod at run
 * time: the client loads them, and only the tiers that validate (`live-schemas.ts`) call these.
 */
export type CounterSchema = (zod: typeof z) => z.ZodType;

/** Counter builders by snapshot key. */
export type CounterShape = Record<string, CounterSchema>;

/** The values of a counter shape (what the snapshot holds). */
export type CounterValues<Shape extends CounterShape> = { [K in keyof Shape]: z.infer<ReturnType<Shape[K]>> };

/**
 * A topic's own counters in the person's snapshot: their zod schemas (part of `LiveSnapshotSchema`),
 * their zero values and how one of the topic's events changes them (mutating a copy).
 */
export interface TopicCounters<Shape extends CounterShape, E> {
  shape: Shape;
  zero: () => CounterValues<Shape>;
  apply: (own: CounterValues<Shape>, e: E) => void;
}

/** The fields every event carries besides its topic's own: the raw numbers and the pushed fields. */
export interface TopicEventBase<Payload> {
  channelType: number;
  messageType?: number;
  messageId?: number;
  /** Id of the record the event is about (complaint, work order, warning, group …). */
  dataId?: number;
  /** The upstream message as received, less the numbers above. */
  payload: Payload;
  /**
   * The version of the person's counters with this event applied (set by the gateway that holds
   * the upstream). A tab holding that version or a later one already counts it: a snapshot read
   * from Redis can overtake the event it includes (issue 35, counters ahead of the database).
   */
  version?: number;
}

/** A topic's event as tabs receive it. */
export type TopicEvent<Name extends string, Fields, Payload> = TopicEventBase<Payload> & { topic: Name } & Fields;

/** Everything a live topic is (DESIGN §3); write one with {@link defineTopic}. */
export interface TopicDefinition<
  Name extends string,
  Fields extends { kind: string },
  Payload,
  Channels extends Record<string, number>,
  Messages extends Record<string, MessageTypeSpec>,
  Shape extends CounterShape,
> {
  /** The socket.io event name tabs subscribe to. */
  name: Name;
  /** Permissions that allow subscribing (any one of them); null = always allowed. */
  permissions: Permission[] | null;
  /** The upstream event numbers (SPEC §7) the topic takes, by name. */
  channels: Channels;
  /** The notification message types (SPEC §9) the topic's events carry, by name. */
  messageTypes: Messages;
  /** The kind (and other fields) of one upstream message of the topic's channels. */
  classify: (m: RawMessage) => Fields;
  counters?: TopicCounters<Shape, TopicEvent<Name, Fields, Payload>>;
  /** The toast a tab shows for an event, or null for none. */
  toast?: (e: TopicEvent<Name, Fields, Payload>) => ToastSpec | null;
  /** Type carrier only (never set): the fields the api pushes with the topic's events. */
  readonly payloadType?: Payload;
}

/** Any topic definition, with its types erased (the registry's element type). */
export type AnyTopic = TopicDefinition<
  string,
  { kind: string },
  unknown,
  Record<string, number>,
  Record<string, MessageTypeSpec>,
  CounterShape
>;

/**
 * Declares a live topic in one place. The first call fixes the event's own fields (`kind`, …)
 * and the payload the api pushes; the second takes the definition:
 *
 *     export const announcements = defineTopic<{ kind: 'announcement' }, AnnouncementPayload>()({ … });
 *
 * Register the result in `topics/registry.ts`; the topic list, the normalizer, the panels, the
 * counters, the toasts and the View targets follow from it.
 */
export function defineTopic<Fields extends { kind: string }, Payload extends Record<string, unknown>>() {
  return <
    const Name extends string,
    const Channels extends Record<string, number>,
    const Messages extends Record<string, MessageTypeSpec>,
    Shape extends CounterShape = Record<never, never>,
  >(
    def: TopicDefinition<Name, Fields, Payload, Channels, Messages, Shape>,
  ): TopicDefinition<Name, Fields, Payload, Channels, Messages, Shape> => def;
}
