import { defineTopic } from './define-topic';

/**
 * What the api pushes with an alarm: an SOS help call (SPEC §5) or a disaster warning.
 * `sos`: what happened to the call `dataId` ('new', 'again' = re-announced because nobody
 * acknowledged it, 'acknowledged', 'closed'). `warn`: what happened to the warning `dataId`
 * ('released', 'revoked', 'reply' = a resident answered, 'handled' = a help request handled).
 */
export type AlarmPayload = {
  name?: string | null;
  messageTime?: string;
  houseType?: number;
  position?: string | null;
  sos?: 'new' | 'again' | 'acknowledged' | 'closed';
  warn?: 'released' | 'revoked' | 'reply' | 'handled';
  type?: number;
};

/** sos: a new SOS call; sosAgain: one nobody acknowledged, announced again; sosUpdate: acknowledged or closed. */
type AlarmKind = 'sos' | 'sosAgain' | 'sosUpdate' | 'disasterWarning' | 'warningUpdate';

function kindOf(m: { messageType?: number; sos?: unknown; warn?: unknown }): AlarmKind {
  if (m.messageType === 7)
    return m.sos === 'again' ? 'sosAgain' : m.sos === 'acknowledged' || m.sos === 'closed' ? 'sosUpdate' : 'sos';
  return m.warn === undefined || m.warn === 'released' ? 'disasterWarning' : 'warningUpdate';
}

const TOAST_KEYS = {
  sos: 'messages.toasts.sos',
  sosAgain: 'disaster.toasts.sosAgain',
  disasterWarning: 'messages.toasts.disasterWarning',
};

/** SOS help calls and disaster warnings: event 10; message type 7 is an SOS call. */
export const alarms = defineTopic<{ kind: AlarmKind }, AlarmPayload>()({
  name: 'alarms',
  // wall:view: the read-only wall screen (issue 22) follows alarms too.
  permissions: ['disasterwarn:list', 'wall:view'],
  channels: { disasterWarning: 10 },
  messageTypes: {
    sosAlarm: {
      type: 7,
      panel: 'alarms',
      counted: true,
      view: { perm: 'disasterwarn:view', path: '/disaster-warning/alert-detail', opensRecord: true },
    },
  },
  classify: (m) => ({ kind: kindOf(m) }),
  // Updates (acknowledged, closed, replies) move screens, not toasts.
  toast: (e) =>
    e.kind === 'sosUpdate' || e.kind === 'warningUpdate'
      ? null
      : { level: 'warning', key: TOAST_KEYS[e.kind], ms: 5000 },
});
