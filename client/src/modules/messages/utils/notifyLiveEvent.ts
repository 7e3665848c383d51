import { toastFor, type LiveEvent } from '@pm/shared';
import { i18n } from '../../i18n/i18n';
import { takeOwnEcho } from '../../live/utils/ownActions';
import { showToast } from '../../ui/states/toasts';

type Hold = (e: LiveEvent) => boolean;
const holds = new Set<Hold>();

/**
 * While a screen shows events itself, it holds their toasts back (the chat page shows chat
 * messages in its list, SPEC §7: the notification is for elsewhere). Returns the release.
 */
export function holdToasts(hold: Hold): () => void {
  holds.add(hold);
  return () => holds.delete(hold);
}

/**
 * Shows the toast the event's topic defines (shared/src/topics): message and alarm events a toast,
 * a chat message elsewhere the chat notification (SPEC's bottom right, moved where it covers no
 * control: ui.css) that opens the chat when clicked. The echo of this tab's own action shows none.
 */
export function notifyLiveEvent(e: LiveEvent, open: (path: string) => void): void {
  const spec = toastFor(e);
  if (!spec) return;
  for (const hold of holds) if (hold(e)) return;
  if (spec.echoKey && takeOwnEcho(spec.echoKey)) return;
  const t = i18n.t.bind(i18n);
  const opens = spec.opens;
  showToast(spec.level, spec.text ?? t(spec.key ?? ''), {
    key: spec.echoKey,
    ms: spec.ms,
    title: spec.title && t(spec.title.key, spec.title.values),
    onClick: opens ? () => open(opens) : undefined,
  });
}
