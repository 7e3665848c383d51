import { describe, expect, it } from 'vitest';
import {
  ALARM_TYPES,
  LIVE_MESSAGE_TYPES,
  MESSAGE_COUNTER_TYPES,
  MESSAGE_PANEL_TYPES,
  MessageType,
  TOPIC_PERMISSIONS,
  TOPICS,
  messageViewLink,
  messageViewTarget,
  normalizeUpstream,
  toastFor,
  visibleCounters,
  type TopicPush,
} from '../registry';
import { ChannelType, LiveSnapshotSchema, applyEvent, countersChangeOf, emptySnapshot } from '../../events';
import { defineTopic, type AnyTopic } from '../define-topic';
import { deriveTopics } from '../derive';
import { alarms } from '../alarms';
import { announcements } from '../announcements';

/** A topic as a later feature would add it: one file's worth of definition. */
type VotePayload = { title?: string; optionIds?: number[] };
const votes = defineTopic<{ kind: 'opened' | 'closed' }, VotePayload>()({
  name: 'votes',
  permissions: ['bulletin:list'],
  channels: { voteOpened: 9100, voteClosed: 9101 },
  messageTypes: {
    voteOpened: {
      type: 60,
      panel: 'messages',
      counted: true,
      view: { perm: 'bulletin:list', path: '/announcements/votes', opensRecord: true },
    },
  },
  classify: (m) => ({ kind: m.channelType === 9100 ? 'opened' : 'closed' }),
  counters: {
    shape: { openVotes: (z) => z.number().int() },
    zero: () => ({ openVotes: 0 }),
    apply: (own, e) => {
      own.openVotes += e.kind === 'opened' ? 1 : -1;
    },
  },
  toast: (e) => ({ level: 'info', key: `votes.toasts.${e.kind}` }),
});

describe('a topic defined in one file', () => {
  // The registry line: the new topic among the others.
  const derived = deriveTopics([alarms, announcements, votes] as readonly AnyTopic[]);

  it('when it is registered, then the topic list, its permissions and the panels take it', () => {
    expect(derived.names).toEqual(['alarms', 'announcements', 'votes']);
    expect(derived.permissions.votes).toEqual(['bulletin:list']);
    expect(derived.channels).toMatchObject({ voteOpened: 9100, voteClosed: 9101, disasterWarning: 10 });
    // 71: the alarms topic's disaster declaration message.
    expect(derived.panelTypes).toEqual([60, 71]);
    expect(derived.counterTypes).toEqual([60, 71]);
    expect(derived.alarmTypes).toEqual([7]);
    expect(derived.liveMessageTypes).toEqual([7, 60, 71]);
    expect(derived.topicOfMessageType(60)).toBe('votes');
  });

  it('when its event number arrives upstream, then the normalizer gives its typed event, counters move and a toast and View follow', () => {
    const e = derived.normalize({
      channelType: 9100,
      messageType: 60,
      messageId: 4,
      dataId: 12,
      title: 'Lift',
      pushSeq: 9,
    });
    expect(e).toEqual({
      topic: 'votes',
      kind: 'opened',
      channelType: 9100,
      messageType: 60,
      messageId: 4,
      dataId: 12,
      payload: { title: 'Lift' },
    });
    const counters: Record<string, unknown> = derived.zeroCounters();
    expect(counters).toEqual({ openVotes: 0 });
    derived.applyCounters(counters, e!);
    expect(counters).toEqual({ openVotes: 1 });
    expect(Object.keys(derived.counterShape)).toEqual(['openVotes']);
    expect(derived.toast(e!)).toEqual({ level: 'info', key: 'votes.toasts.opened' });
    const view = derived.viewTarget(60);
    expect(view && messageViewLink(view, e!.dataId)).toBe('/announcements/votes?open=12');
  });
});

describe('the registered topics (DESIGN §3)', () => {
  it('when the registry is read, then it lists the topics with their permissions', () => {
    expect(TOPICS).toEqual([
      'alarms',
      'workorders',
      'chat',
      'residents',
      'announcements',
      'session',
      'estate',
      'checkin',
      'access',
    ]);
    expect(TOPIC_PERMISSIONS.estate).toBeNull();
    expect(TOPIC_PERMISSIONS.access).toBeNull();
    expect(TOPIC_PERMISSIONS.session).toBeNull();
    expect(TOPIC_PERMISSIONS.residents).toEqual(['unit:list', 'carpark:list', 'shop:list']);
  });

  // Those of SPEC §9, plus 71 (a new disaster declaration, issue 21: SPEC has no message for it).
  it('when the panels ask for their types, then they are those of SPEC §9 and the declaration message', () => {
    expect(MESSAGE_PANEL_TYPES).toEqual([11, 13, 27, 28, 29, 31, 32, 33, 49, 50, 71]);
    expect(MESSAGE_COUNTER_TYPES).toEqual([11, 13, 27, 28, 29, 31, 32, 33, 71]);
    expect(ALARM_TYPES).toEqual([7]);
    expect(LIVE_MESSAGE_TYPES).toEqual([7, 11, 13, 27, 28, 29, 31, 32, 33, 49, 50, 71]);
    expect(MessageType).toMatchObject({ sosAlarm: 7, newComplaint: 50, exitMerchant: 33 });
    expect(ChannelType).toMatchObject({ system: 0, complaint: 8, createGroupChat: 3200, countersChanged: 3900 });
  });

  it('when View is asked for a message, then a work-order message opens its record and a join message its screen', () => {
    const complaint = messageViewTarget(13)!;
    expect(complaint.perm).toBe('complain:view');
    expect(messageViewLink(complaint, 41)).toBe('/complaints-suggestions/index?open=41');
    expect(messageViewLink(messageViewTarget(28)!, 41)).toBe('/building-management/park-space-management');
    expect(messageViewTarget(30)).toBeNull();
  });

  it('when events arrive, then their toasts come from their topics', () => {
    const status = normalizeUpstream({ channelType: 8, dataId: 5, status: 2 })!;
    expect(toastFor(status)).toMatchObject({
      key: 'messages.toasts.complaint_status',
      echoKey: 'workorders:complaint:5:2',
    });
    expect(toastFor(normalizeUpstream({ channelType: 10, messageType: 7 })!)).toMatchObject({
      level: 'warning',
      key: 'messages.toasts.sos',
    });
    expect(toastFor(normalizeUpstream({ channelType: 3001 })!)).toBeNull();
    const own = normalizeUpstream({ channelType: 3, content: 'hi', read: true })!;
    expect(toastFor(own)).toBeNull();
  });

  it('when the snapshot schema is built, then it holds every topic counter and still parses what the gateway sends', () => {
    expect(Object.keys(LiveSnapshotSchema.shape).sort()).toEqual(
      ['chatUnread', 'complaints', 'eventOrders', 'unreadByType', 'version'].sort(),
    );
    expect(LiveSnapshotSchema.parse(emptySnapshot())).toEqual(emptySnapshot());
  });
});

describe('counters changes (quiet pushes)', () => {
  it('when a message read or a chat cleared arrives, then the counters drop, never below zero, and no topic event is made', () => {
    const start = { ...emptySnapshot(), unreadByType: { '13': 2, '7': 0 }, chatUnread: 3 };
    const read = countersChangeOf({ channelType: 3900, unreadByType: { '13': -1, '7': -1, '99': -1 }, pushSeq: 4 })!;
    expect(normalizeUpstream({ channelType: 3900 })).toBeNull();
    expect(read).toEqual({ topic: null, channelType: 3900, change: { unreadByType: { '13': -1, '7': -1, '99': -1 } } });
    const s = applyEvent(start, read);
    expect(s.unreadByType).toEqual({ '13': 1, '7': 0 });
    const cleared = applyEvent(s, countersChangeOf({ channelType: 3900, chatUnread: -5 })!);
    expect(cleared.chatUnread).toBe(0);
    expect(cleared.version).toBe(start.version + 2);
    expect(countersChangeOf({ channelType: 8 })).toBeNull();
    // Only counters move: the version is the gateway's.
    expect(applyEvent(start, countersChangeOf({ channelType: 3900, version: 99 })!).version).toBe(start.version + 1);
  });
});

describe('typed pushes', () => {
  it('when the api writes a push, then only the fields its topic takes compile', () => {
    const ok: TopicPush[] = [
      { channelType: 8, messageType: 50, dataId: 1, status: 1, code: 'C1' },
      { channelType: 1, groupId: 2, content: 'hi', fromUser: { idUser: 1, userName: 'A' } },
    ];
    // @ts-expect-error a complaint message type on the chat channel
    const wrongType: TopicPush = { channelType: 1, messageType: 50 };
    // @ts-expect-error a work-order status must be a WorkStatus
    const wrongStatus: TopicPush = { channelType: 8, status: 'done' };
    expect([...ok, wrongType, wrongStatus]).toHaveLength(4);
  });
});

describe('the counters a person may see (issue 30)', () => {
  const counters = {
    ...emptySnapshot(),
    unreadByType: { '13': 2 },
    chatUnread: 4,
    complaints: { untreated: 1, processing: 2, completed: 3 },
    eventOrders: { untreated: 4, processing: 5, completed: 6 },
  };

  it('when the person may not receive a topic, then its counters are zero and the others stay', () => {
    const seen = visibleCounters(counters, new Set(['complain:list', 'bulletin:list']));
    expect(seen.chatUnread).toBe(0);
    expect(seen.complaints).toEqual(counters.complaints);
    expect(seen.eventOrders).toEqual(counters.eventOrders);
    expect(seen.unreadByType).toEqual({ '13': 2 });
    const none = visibleCounters(counters, new Set());
    expect(none.chatUnread).toBe(0);
    expect(none.complaints).toEqual({ untreated: 0, processing: 0, completed: 0 });
    expect(none.eventOrders).toEqual({ untreated: 0, processing: 0, completed: 0 });
    // The original is left as it was.
    expect(counters.chatUnread).toBe(4);
  });

  it('when the person may receive every topic with counters, then nothing changes', () => {
    expect(visibleCounters(counters, new Set(['im:list', 'eventorder:list']))).toEqual(counters);
  });
});
