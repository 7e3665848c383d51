import { afterEach, describe, expect, it } from 'vitest';
import { normalizeUpstream } from '@pm/shared';
import '../../i18n/i18n';
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
