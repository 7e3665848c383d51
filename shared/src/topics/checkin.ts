import { defineTopic } from './define-topic';

/** What the api pushes when a staff member punches, or a make-up request is reviewed (issue 32). */
export type CheckinPayload = {
  personId?: number;
  /** 'punch' (accepted), 'refused' (outside the radius), 'makeup' (a reviewed make-up request). */
  action?: 'punch' | 'refused' | 'makeup';
  kind?: 'in' | 'out';
  at?: string;
};

/**
 * Staff check-in: the duty board of open consoles reloads within a second of a punch. Channel
 * 3400 is this api's own number, not SPEC's; no toast, no counters.
 */
export const checkin = defineTopic<{ kind: 'punch' }, CheckinPayload>()({
  name: 'checkin',
  permissions: ['checkin:view'],
  channels: { checkinPunch: 3400 },
  messageTypes: {},
  classify: () => ({ kind: 'punch' }),
});
