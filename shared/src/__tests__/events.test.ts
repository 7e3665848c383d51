import { describe, expect, it } from 'vitest';
import {
  allowedTopics,
  alarmCount,
  applyEvent,
  emptySnapshot,
  messageCount,
  normalizeUpstream,
  topicOfMessageType,
  type LiveEvent,
} from '../events';

describe('normalizeUpstream', () => {
  it('when a new complaint arrives (8 / 50), then it is a workorders event of kind complaint, action new', () => {
    const e = normalizeUpstream({ channelType: 8, messageType: 50, messageId: 5, dataId: 9, title: 'Leak' });
    expect(e).toEqual({
      topic: 'workorders',
      kind: 'complaint',
      action: 'new',
      channelType: 8,
      messageType: 50,
      messageId: 5,
      dataId: 9,
      payload: { title: 'Leak' },
    });
  });

  it('when a work-order reply arrives (7 / 11), then the action is reply', () => {
    expect(normalizeUpstream({ channelType: 7, messageType: 11 })).toMatchObject({
      kind: 'eventOrder',
      action: 'reply',
    });
  });

  it('when a status change arrives without a message type, then the action is status', () => {
    expect(normalizeUpstream({ channelType: 7, status: 2 })).toMatchObject({ action: 'status' });
  });

  it('when channel 10 carries message type 7, then it is an SOS alarm; otherwise a disaster warning', () => {
    expect(normalizeUpstream({ channelType: 10, messageType: 7 })).toMatchObject({ topic: 'alarms', kind: 'sos' });
    expect(normalizeUpstream({ channelType: 10 })).toMatchObject({ topic: 'alarms', kind: 'disasterWarning' });
  });

  it.each([
    [0, 'session', 'system'],
    [1, 'chat', 'message'],
    [3, 'chat', 'message'],
    [4, 'chat', 'memberAdded'],
    [5, 'chat', 'memberRemoved'],
    [6, 'chat', 'groupDissolved'],
    [9, 'announcements', 'announcement'],
    [12, 'residents', 'join'],
    [14, 'residents', 'leave'],
    [3000, 'session', 'login'],
    [3001, 'session', 'logout'],
    [3100, 'chat', 'privateCreated'],
    [3200, 'chat', 'groupCreated'],
  ])('when channelType %i arrives, then it maps to %s / %s', (channelType, topic, kind) => {
    expect(normalizeUpstream({ channelType })).toMatchObject({ topic, kind, channelType });
  });

  it('when an unknown number or a heartbeat arrives, then nothing is produced', () => {
    expect(normalizeUpstream({ channelType: 2 })).toBeNull();
    expect(normalizeUpstream({ channelType: 77 })).toBeNull();
    expect(normalizeUpstream({ channelType: 'heartbeat' })).toBeNull();
  });
});

describe('topics and permissions', () => {
  it('when a person lacks disasterwarn:list, then alarms is not allowed but session, estate and access always are', () => {
    expect(allowedTopics(new Set(['complain:list']))).toEqual(['workorders', 'session', 'estate', 'access']);
    expect(allowedTopics(new Set(['disasterwarn:list', 'im:list']))).toEqual([
      'alarms',
      'chat',
      'session',
      'estate',
      'access',
    ]);
  });

  it('when an estate setting changes (3950), then it is an estate event carrying the new settings', () => {
    const e = normalizeUpstream({ channelType: 3950, dataId: 4, name: 'Harbour View', timeZone: 'Asia/Tokyo' });
    expect(e).toMatchObject({ topic: 'estate', kind: 'settings', dataId: 4 });
    expect(e?.payload).toMatchObject({ name: 'Harbour View', timeZone: 'Asia/Tokyo' });
  });

  it('when message types are looked up, then each belongs to its topic', () => {
    expect(topicOfMessageType(7)).toBe('alarms');
    expect(topicOfMessageType(50)).toBe('workorders');
    expect(topicOfMessageType(28)).toBe('residents');
    expect(topicOfMessageType(30)).toBeNull();
  });
});

describe('applyEvent', () => {
  const event = (e: Partial<LiveEvent>) => ({ payload: {}, channelType: 8, ...e }) as LiveEvent;

  it('when a new complaint notification arrives, then unread type 50 and untreated rise', () => {
    const s = applyEvent(
      emptySnapshot(),
      event({ topic: 'workorders', kind: 'complaint', action: 'new', messageType: 50, messageId: 1 }),
    );
    expect(s.unreadByType['50']).toBe(1);
    expect(s.complaints.untreated).toBe(1);
    expect(s.version).toBe(1);
  });

  it('when a status change to processing arrives, then one moves from untreated to processing', () => {
    const start = { ...emptySnapshot(), eventOrders: { untreated: 2, processing: 0, completed: 0 } };
    const s = applyEvent(
      start,
      event({ topic: 'workorders', kind: 'eventOrder', action: 'status', channelType: 7, payload: { status: 2 } }),
    );
    expect(s.eventOrders).toEqual({ untreated: 1, processing: 1, completed: 0 });
    expect(start.eventOrders.untreated).toBe(2);
  });

  it('when alarms and replies are unread, then the bells count their own types', () => {
    let s = applyEvent(emptySnapshot(), event({ topic: 'alarms', kind: 'sos', messageType: 7, messageId: 1 }));
    s = applyEvent(
      s,
      event({ topic: 'workorders', kind: 'complaint', action: 'reply', messageType: 13, messageId: 2 }),
    );
    s = applyEvent(s, event({ topic: 'workorders', kind: 'complaint', action: 'new', messageType: 50, messageId: 3 }));
    expect(alarmCount(s)).toBe(1);
    expect(messageCount(s)).toBe(1);
  });

  it('when an event arrives after a snapshot that already counts it (its version), then it is not counted again', () => {
    const e = event({
      topic: 'workorders',
      kind: 'complaint',
      action: 'new',
      messageType: 50,
      messageId: 1,
      version: 8,
    });
    const snapshot = { ...emptySnapshot(), complaints: { untreated: 1, processing: 0, completed: 0 }, version: 8 };
    expect(applyEvent(snapshot, e)).toEqual(snapshot);
    const before = { ...emptySnapshot(), version: 7 };
    const after = applyEvent(before, e);
    expect(after.complaints.untreated).toBe(1);
    expect(after.version).toBe(8);
  });

  it('when a chat message arrives unread, then chat unread rises; a read one does not', () => {
    let s = applyEvent(emptySnapshot(), event({ topic: 'chat', kind: 'message', channelType: 3 }));
    s = applyEvent(s, event({ topic: 'chat', kind: 'message', channelType: 3, payload: { read: true } }));
    expect(s.chatUnread).toBe(1);
  });
});
