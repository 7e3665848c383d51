import { describe, expect, it } from 'vitest';
import { applyEvent, emptySnapshot, normalizeUpstream, toastFor } from '@pm/shared';
import { i18n } from '../../i18n/i18n';
import { mergeRecords } from '../hooks/useConversation';
import { formatBytes, linkify, parseFileContent, previewText, systemLineText } from '../utils/chatContent';

const t = i18n.t.bind(i18n);
const record = (seq: number, content = `m${seq}`) => ({
  recordId: seq,
  groupId: 1,
  seq,
  type: 1,
  content,
  fromPersonId: 2,
  fromName: 'Pat',
  fromImages: [],
  clientId: null,
  createdAt: '2026-11-26T10:00:00.000Z',
});

describe('chat content', () => {
  it('when pages, events and answers overlap or come out of order, then records are merged by seq, each once, ascending', () => {
    const merged = mergeRecords([record(3), record(4)], [record(5), record(1), record(4, 'newer copy'), record(2)]);
    expect(merged.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(merged.find((r) => r.seq === 4)?.content).toBe('newer copy');
    expect(mergeRecords(merged, [])).toBe(merged);
  });

  it('when text has links, then only http(s) links become links and nothing becomes HTML', () => {
    expect(linkify('See https://example.com/a?b=1. Or <b>x</b> javascript:alert(1)')).toEqual([
      { text: 'See ' },
      { text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { text: '. Or <b>x</b> javascript:alert(1)' },
    ]);
  });

  it('when a file message is read, then its path, name and size come out, and sizes read as people say them', () => {
    expect(parseFileContent('/upload/files/chat/1/a.pdf?name=Lease%202026.pdf&size=2048')).toEqual({
      url: '/upload/files/chat/1/a.pdf',
      name: 'Lease 2026.pdf',
      size: 2048,
    });
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });

  it('when a system line or a picture is previewed, then it reads as a sentence or a placeholder, "you" for oneself', () => {
    const line = JSON.stringify({
      event: 'added',
      by: { personId: 9, name: 'Alex' },
      persons: [
        { personId: 2, name: 'Pat' },
        { personId: 3, name: 'Kim' },
      ],
    });
    expect(systemLineText(t, line, 3)).toBe('Alex added Pat, You');
    expect(previewText(t, { type: 2, content: '/x.png' }, 1)).toBe('[Picture]');
    expect(
      previewText(t, { type: 10, content: JSON.stringify({ event: 'dissolved', by: { personId: 1, name: 'A' } }) }, 1),
    ).toBe('You dissolved the group');
  });

  it('when another tab reads a chat (event 3300), then the unread total drops by what was cleared, never below 0, with no notification', () => {
    const message = normalizeUpstream({
      channelType: 1,
      groupId: 4,
      seq: 8,
      content: 'hi',
      fromUser: { idUser: 2, userName: 'Pat' },
    })!;
    const read = normalizeUpstream({ channelType: 3300, groupId: 4, readSeq: 8, cleared: 3 })!;
    const s = applyEvent(applyEvent({ ...emptySnapshot(), chatUnread: 2 }, message), read);
    expect(s.chatUnread).toBe(0);
    expect(toastFor(read)).toBeNull();
    expect(toastFor(message)?.opens).toBe('/instant-messaging/chat?open=4');
  });
});
