import { afterEach, describe, expect, it } from 'vitest';
import { normalizeUpstream } from '@pm/shared';
import '../../i18n/i18n';
import { ownActionKey, rememberOwnAction } from '../../live/utils/ownActions';
import { toastState } from '../../ui/states/toasts';
import { notifyLiveEvent } from '../utils/notifyLiveEvent';

const chat = (message: Record<string, unknown>) => {
  const e = normalizeUpstream({ channelType: 1, ...message });
  if (!e) throw new Error('not a live event');
  return e;
};

describe('chat notifications (SPEC §7)', () => {
  afterEach(() => {
    toastState.items.splice(0);
  });

  it('when a private message arrives, then the notification names the buddy and shows the text', () => {
    notifyLiveEvent(
      chat({
        channelType: 1,
        content: 'Hello',
        type: 1,
        fromUser: { idUser: 7, userName: 'Kai Ng' },
        group: { idGroup: 3, groupName: 'Kai Ng' },
      }),
      () => undefined,
    );
    expect(toastState.items).toHaveLength(1);
    expect(toastState.items[0]).toMatchObject({ title: 'Message from Kai Ng', text: 'Hello' });
  });

  it('when a group message with a picture arrives, then it names group and sender and shows a placeholder', () => {
    notifyLiveEvent(
      chat({
        channelType: 3,
        content: '/p.png',
        type: 2,
        fromUser: { idUser: 7, userName: 'Kai Ng' },
        group: { idGroup: 4, groupName: 'Block A' },
      }),
      () => undefined,
    );
    expect(toastState.items[0]).toMatchObject({ title: 'Kai Ng in Block A', text: '[Picture]' });
  });

  it("when the person's own message comes back, then nothing is shown", () => {
    notifyLiveEvent(
      chat({ channelType: 3, content: 'mine', read: true, fromUser: { idUser: 1, userName: 'Me' } }),
      () => undefined,
    );
    expect(toastState.items).toHaveLength(0);
  });
});

describe('toasts from the topic definitions', () => {
  afterEach(() => {
    toastState.items.splice(0);
  });

  it('when an SOS alarm arrives, then a warning toast says so', () => {
    notifyLiveEvent(normalizeUpstream({ channelType: 10, messageType: 7, messageId: 1 })!, () => undefined);
    expect(toastState.items[0]).toMatchObject({ kind: 'warning', text: 'New SOS alarm received' });
  });

  it("when the echo of this tab's own status change arrives, then no second toast shows; someone else's does", () => {
    const status = normalizeUpstream({ channelType: 8, dataId: 77, status: 2 })!;
    rememberOwnAction(ownActionKey('workorders', 'complaint', 77, 2));
    notifyLiveEvent(status, () => undefined);
    expect(toastState.items).toHaveLength(0);
    notifyLiveEvent(status, () => undefined);
    expect(toastState.items[0]).toMatchObject({ kind: 'info', text: 'A complaint changed its status' });
  });

  it('when the chat notification is clicked, then it opens the chat', () => {
    const opened: string[] = [];
    notifyLiveEvent(chat({ channelType: 1, content: 'Hi', fromUser: { idUser: 7, userName: 'Kai Ng' } }), (path) =>
      opened.push(path),
    );
    toastState.items[0].onClick?.();
    expect(opened).toEqual(['/instant-messaging/chat']);
  });
});
