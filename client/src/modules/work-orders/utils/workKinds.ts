import type { WorkKindName } from '../../api';

/** What differs between the complaints screen and the work-orders screen (SPEC §2). */
export interface WorkScreen {
  kind: WorkKindName;
  /** Permission codes (SPEC §6). */
  perms: { update: string; reply: string; view: string };
  /** Translation keys. */
  codeColumn: string;
  infoTab: string;
  /** The live counters of this kind in the gateway's snapshot. */
  totalsKey: 'complaints' | 'eventOrders';
}

export const COMPLAINT_SCREEN: WorkScreen = {
  kind: 'complaint',
  perms: { update: 'complain:update', reply: 'complain:reply', view: 'complain:view' },
  codeColumn: 'workOrders.columns.complainCode',
  infoTab: 'workOrders.complaintInfo',
  totalsKey: 'complaints',
};

export const EVENT_ORDER_SCREEN: WorkScreen = {
  kind: 'eventOrder',
  perms: { update: 'eventorder:update', reply: 'eventorder:reply', view: 'eventorder:view' },
  codeColumn: 'workOrders.columns.eventCode',
  infoTab: 'workOrders.eventInfo',
  totalsKey: 'eventOrders',
};
