import type { Permission } from '../permissions';
import type { AnyTopic, MessageTypeSpec, RawMessage, ToastSpec, ViewTarget } from './define-topic';

/** A topic event with its types erased (what the derived functions take and give). */
export interface AnyTopicEvent {
  topic: string;
  kind: string;
  channelType: number;
  messageType?: number;
  messageId?: number;
  dataId?: number;
  payload: Record<string, unknown>;
}

/** A copy of a counter value that may be changed in place (a totals object is copied). */
const copy = (v: unknown) => (typeof v === 'object' && v !== null ? { ...v } : v);

/**
 * Everything the tiers need from a list of topic definitions: the topic list, the permissions,
 * the normalizer, the panels' message types, the counters, the toasts and the View targets.
 * `topics/registry.ts` applies it to the registered topics and gives the results their types.
 */
export function deriveTopics(topics: readonly AnyTopic[]) {
  const byName = new Map(topics.map((t) => [t.name, t]));
  const byChannel = new Map(topics.flatMap((t) => Object.values(t.channels).map((c) => [c, t] as const)));
  const byMessageType = new Map<number, { topic: AnyTopic; spec: MessageTypeSpec }>(
    topics.flatMap((t) => Object.values(t.messageTypes).map((spec) => [spec.type, { topic: t, spec }] as const)),
  );
  const messageTypes = (keep: (spec: MessageTypeSpec) => boolean) =>
    [...byMessageType.values()]
      .map((m) => m.spec)
      .filter(keep)
      .map((spec) => spec.type)
      .sort((a, b) => a - b);

  return {
    names: topics.map((t) => t.name),
    permissions: Object.fromEntries(topics.map((t) => [t.name, t.permissions])) as Record<string, Permission[] | null>,
    channels: Object.assign({}, ...topics.map((t) => t.channels)) as Record<string, number>,
    messageTypeNames: Object.fromEntries(
      topics.flatMap((t) => Object.entries(t.messageTypes).map(([name, spec]) => [name, spec.type])),
    ) as Record<string, number>,
    /** Every message type a topic takes, those the message panel lists and counts, and the alarm panel's. */
    liveMessageTypes: messageTypes(() => true),
    panelTypes: messageTypes((s) => s.panel === 'messages'),
    counterTypes: messageTypes((s) => s.panel === 'messages' && s.counted),
    alarmTypes: messageTypes((s) => s.panel === 'alarms'),
    topicOfMessageType: (messageType: number): string | null => byMessageType.get(messageType)?.topic.name ?? null,
    viewTarget: (messageType: number): ViewTarget | null => byMessageType.get(messageType)?.spec.view ?? null,
    toast: (e: AnyTopicEvent): ToastSpec | null => byName.get(e.topic)?.toast?.(e) ?? null,
    counterShape: Object.assign({}, ...topics.map((t) => t.counters?.shape ?? {})) as Record<string, unknown>,
    zeroCounters: (): Record<string, unknown> => Object.assign({}, ...topics.map((t) => t.counters?.zero() ?? {})),
    /** Each topic's own counters at zero, by topic name (topics without counters are absent). */
    zeroCountersByTopic: Object.fromEntries(
      topics.filter((t) => t.counters).map((t) => [t.name, () => t.counters!.zero()]),
    ) as Record<string, () => Record<string, unknown>>,
    /** Applies an event to its topic's counters in `next` (a copy of the snapshot, changed in place). */
    applyCounters(next: Record<string, unknown>, e: AnyTopicEvent): void {
      const counters = byName.get(e.topic)?.counters;
      if (!counters) return;
      for (const key of Object.keys(counters.shape)) next[key] = copy(next[key]);
      counters.apply(next, e);
    },
    /** The typed event of one upstream message, or null when no topic takes its number (or a heartbeat). */
    normalize(message: { channelType: number | 'heartbeat' } & Record<string, unknown>): AnyTopicEvent | null {
      if (message.channelType === 'heartbeat') return null;
      const topic = byChannel.get(message.channelType);
      if (!topic) return null;
      const { channelType, messageType, messageId, dataId, pushSeq: _pushSeq, ...payload } = message as RawMessage;
      return {
        topic: topic.name,
        ...topic.classify(message as RawMessage),
        channelType,
        ...(messageType !== undefined && { messageType }),
        ...(messageId !== undefined && { messageId }),
        ...(dataId !== undefined && { dataId }),
        payload,
      };
    },
  };
}
