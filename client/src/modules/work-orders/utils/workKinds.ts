import type { Permission } from '@pm/shared';

/** Complaints/suggestions and event work orders: one screen, one set of calls, two kinds. */
export type WorkKindName = 'complaint' | 'eventOrder';

/**
 * Everything that differs between the two kinds, in one table: a screen or call reads its
 * kind's row here instead of branching on the kind (STYLE.md "a variant is data").
 */
export interface WorkKind {
  kind: WorkKindName;
  /** The screen's route (shared route table) and the page's test id. */
  path: string;
  testId: string;
  /** Wire names of SPEC §7 and §3. */
  api: {
    base: string;
    reply: string;
    totals: string;
    idField: 'complainId' | 'eventOrderId';
    codeField: 'complainCode' | 'eventCode';
    statusField: 'complainStatus' | 'eventStatus';
  };
  /** Upload folder of its pictures (`/upload/uploadimage/{kind}`). */
  uploadKind: 'complain' | 'eventorder';
  /** Permission codes (SPEC §6). */
  perms: { update: Permission; reply: Permission; view: Permission };
  /** Only work orders have a type (SPEC §3): its column and filter. */
  hasType: boolean;
  /** Translation keys. */
  codeColumn: string;
  infoTab: string;
  /** The live counters of this kind in the gateway's snapshot. */
  totalsKey: 'complaints' | 'eventOrders';
}

export const WORK_KINDS: Readonly<Record<WorkKindName, WorkKind>> = {
  complaint: {
    kind: 'complaint',
    path: '/complaints-suggestions/index',
    testId: 'work-page-complaint',
    api: {
      base: '/complain',
      reply: '/complainReply',
      totals: 'getComplainStatusTotalVo',
      idField: 'complainId',
      codeField: 'complainCode',
      statusField: 'complainStatus',
    },
    uploadKind: 'complain',
    perms: { update: 'complain:update', reply: 'complain:reply', view: 'complain:view' },
    hasType: false,
    codeColumn: 'workOrders.columns.complainCode',
    infoTab: 'workOrders.complaintInfo',
    totalsKey: 'complaints',
  },
  eventOrder: {
    kind: 'eventOrder',
    path: '/event-work-order/index',
    testId: 'work-page-eventOrder',
    api: {
      base: '/eventOrder',
      reply: '/eventReply',
      totals: 'getEventOrderStatusTotalVo',
      idField: 'eventOrderId',
      codeField: 'eventCode',
      statusField: 'eventStatus',
    },
    uploadKind: 'eventorder',
    perms: { update: 'eventorder:update', reply: 'eventorder:reply', view: 'eventorder:view' },
    hasType: true,
    codeColumn: 'workOrders.columns.eventCode',
    infoTab: 'workOrders.eventInfo',
    totalsKey: 'eventOrders',
  },
};
