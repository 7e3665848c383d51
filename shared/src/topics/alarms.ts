import { defineTopic } from './define-topic';

/**
 * What the api pushes with an alarm: an SOS help call (SPEC §5) or a disaster warning.
 * `sos`: what happened to the call `dataId` ('new', 'again' = re-announced because nobody
 * acknowledged it, 'acknowledged', 'closed'). `warn`: what happened to the warning `dataId`
 * ('released', 'revoked', 'reply' = a resident answered, 'handled' = a help request handled,
 * 'read' = a resident read it). `declaration`: what happened to the disaster declaration `dataId`
 * ('new' = a resident declared it: message type 71; 'handled' = staff handled it).
 */
export type AlarmPayload = {
  name?: string | null;
  messageTime?: string;
  houseType?: number;
  position?: string | null;
  sos?: 'new' | 'again' | 'acknowledged' | 'closed';
  warn?: 'released' | 'revoked' | 'reply' | 'handled' | 'read';
  declaration?: 'new' | 'handled';
  type?: number;
  kind?: number;
};

/**
 * sos: a new SOS call; sosAgain: one nobody acknowledged, announced again; sosUpdate: acknowledged
 * or closed. declaration: a new disaster declaration; declarationUpdate: one handled.
 */
type AlarmKind =
  'sos' | 'sosAgain' | 'sosUpdate' | 'disasterWarning' | 'warningUpdate' | 'declaration' | 'declarationUpdate';

function kindOf(m: { messageType?: number; sos?: unknown; warn?: unknown; declaration?: unknown }): AlarmKind {
  if (m.declaration !== undefined) return m.declaration === 'new' ? 'declaration' : 'declarationUpdate';
  if (m.messageType === 7)
    return m.sos === 'again' ? 'sosAgain' : m.sos === 'acknowledged' || m.sos === 'closed' ? 'sosUpdate' : 'sos';
  return m.warn === undefined || m.warn === 'released' ? 'disasterWarning' : 'warningUpdate';
}

const TOAST_KEYS = {
  sos: 'messages.toasts.sos',
  sosAgain: 'disaster.toasts.sosAgain',
  disasterWarning: 'messages.toasts.disasterWarning',
  declaration: 'disaster.toasts.declaration',
};

/**
 * Who receives SOS calls (message type 7, the only type of the alarm bell): staff with
 * disasterwarn:list and the estate's wall screens (api disaster.recipients `sosStaff`). The console
 * shows the alarm bell and the dashboard's alarm count to them only: someone with just
 * disasterreport:list follows the alarms topic for declarations, which are listed by the message bell.
 */
export const SOS_RECIPIENT_PERMISSIONS = ['disasterwarn:list', 'wall:view'] as const;

/**
 * SOS help calls, disaster warnings and disaster declarations: event 10; message type 7 is an SOS
 * call, 71 a new declaration. disasterreport:list may subscribe too, for the declarations: the api
 * pushes SOS calls and warnings only to the people who may see them, so it hears nothing else.
 */
export const alarms = defineTopic<{ kind: AlarmKind }, AlarmPayload>()({
  name: 'alarms',
  // disasterreport:list hears new declarations; wall:view, the read-only wall screen (issue 22), follows alarms too.
  permissions: ['disasterwarn:list', 'disasterreport:list', 'wall:view'],
  channels: { disasterWarning: 10 },
  messageTypes: {
    sosAlarm: {
      type: 7,
      panel: 'alarms',
      counted: true,
      view: { perm: 'disasterwarn:view', path: '/disaster-warning/alert-detail', opensRecord: true },
    },
    disasterDeclaration: {
      type: 71,
      panel: 'messages',
      counted: true,
      view: { perm: 'disasterreport:list', path: '/disaster-warning/disaster-declaration', opensRecord: true },
    },
  },
  classify: (m) => ({ kind: kindOf(m) }),
  // Updates (acknowledged, closed, replies, reads, handled) move screens, not toasts.
  toast: (e) =>
    e.kind === 'sosUpdate' || e.kind === 'warningUpdate' || e.kind === 'declarationUpdate'
      ? null
      : e.kind === 'declaration'
        ? {
            level: 'info',
            key: TOAST_KEYS[e.kind],
            opens: `/disaster-warning/disaster-declaration?open=${e.dataId ?? ''}`,
          }
        : { level: 'warning', key: TOAST_KEYS[e.kind], ms: 5000 },
});
