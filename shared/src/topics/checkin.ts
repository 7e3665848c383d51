import type { CheckinBoardRow } from '../api/checkin';
import { defineTopic } from './define-topic';

/** What the api pushes when a staff member punches, or a make-up request is reviewed (issue 32). */
export type CheckinPayload = {
  personId?: number;
  /** 'punch' (accepted), 'refused' (outside the radius), 'makeup' (a reviewed make-up request). */
  action?: 'punch' | 'refused' | 'makeup';
  kind?: 'in' | 'out';
  at?: string;
  /**
   * The estate's today and the person's duty-board row after the punch or approved make-up
   * (null: not on today's board): an open board of that day moves the person without a reload.
   * Absent (a refused make-up): nothing changed on the board.
   */
  day?: string;
  row?: CheckinBoardRow | null;
};

/**
 * Staff check-in: the duty board of open consoles moves the person within a second of a punch. Channel
 * 3400 is this api's own number, not SPEC's; no toast, no counters.
 */
export const checkin = defineTopic<{ kind: 'punch' }, CheckinPayload>()({
  name: 'checkin',
  permissions: ['checkin:view'],
  channels: { checkinPunch: 3400 },
  messageTypes: {},
  classify: () => ({ kind: 'punch' }),
});
