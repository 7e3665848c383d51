import { defineTopic } from './define-topic';

/** What the api pushes with an alarm: an SOS help call (SPEC §5) or a disaster warning. */
export type AlarmPayload = {
  name?: string | null;
  messageTime?: string;
  houseType?: number;
  position?: string | null;
};

/** SOS help calls and disaster warnings: event 10; message type 7 is an SOS call. */
export const alarms = defineTopic<{ kind: 'sos' | 'disasterWarning' }, AlarmPayload>()({
  name: 'alarms',
  permissions: ['disasterwarn:list'],
  channels: { disasterWarning: 10 },
  messageTypes: {
    sosAlarm: {
      type: 7,
      panel: 'alarms',
      counted: true,
      view: { perm: 'disasterwarn:view', path: '/disaster-warning/disaster-release', opensRecord: false },
    },
  },
  classify: (m) => ({ kind: m.messageType === 7 ? 'sos' : 'disasterWarning' }),
  toast: (e) => ({
    level: 'warning',
    key: e.kind === 'sos' ? 'messages.toasts.sos' : 'messages.toasts.disasterWarning',
    ms: 5000,
  }),
});
