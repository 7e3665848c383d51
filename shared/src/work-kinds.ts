import type { Permission } from './permissions';

/** Complaints/suggestions and event work orders (SPEC §3, §4): one domain, two kinds. */
export type WorkKindName = 'complaint' | 'eventOrder';

/**
 * Everything that differs between the two kinds of the work-orders domain, in ONE table every
 * tier reads (STYLE.md "a variant is data, not branches"): code reads its kind's row instead of
 * testing `kind === 'complaint'`. The SQL names are constants of the code, never input, so a
 * repository may splice them into a query.
 */
export interface WorkKind {
  kind: WorkKindName;
  /** What a list of them is called in API summaries and logs. */
  noun: string;
  /** Staff call prefixes (SPEC §7): `/complain/…`, `/complainReply/…`, and the status-totals call's name. */
  path: '/complain' | '/eventOrder';
  replyPath: '/complainReply' | '/eventReply';
  totalsCall: 'getComplainStatusTotalVo' | 'getEventOrderStatusTotalVo';
  /** Resident call prefix (DESIGN §5): `/app/complain/save`, `/app/complain/reply` … */
  residentPath: '/app/complain' | '/app/eventOrder';
  /** Field names in answers and bodies. */
  idField: 'complainId' | 'eventOrderId';
  codeField: 'complainCode' | 'eventCode';
  statusField: 'complainStatus' | 'eventStatus';
  /** Table and column names (api/src/db/schema/work.ts). */
  sql: {
    table: 'complain' | 'event_order';
    replyTable: 'complain_reply' | 'event_reply';
    replyForeignKey: 'complain_id' | 'event_order_id';
    codeColumn: 'complain_code' | 'event_code';
    statusColumn: 'complain_status' | 'event_status';
  };
  /** First letter of a code: C202611220001 / E202611220001. */
  codePrefix: 'C' | 'E';
  /** Only work orders have a type (1–5): its column, filter and body field. */
  hasType: boolean;
  /** Upload folder of its pictures (`/upload/uploadimage/{kind}`). */
  uploadKind: 'complain' | 'eventorder';
  /** Permission codes (SPEC §6); `list` also decides who is told of a new one. */
  perms: { list: Permission; view: Permission; update: Permission; reply: Permission };
  /** Push channel (event number) of its live events. */
  channel: 7 | 8; // ChannelType.eventOrder | complaint: the workorders topic's events (topics/workorders.ts)
  /** Message type staff get for a new one, and the one a reply leaves for the other side. */
  newMessage: 49 | 50; // MessageType.newEventOrder | newComplaint
  replyMessage: 11 | 13; // MessageType.eventReply | complaintReply
  /** Its status totals in the live counters (`LiveCounters`). */
  totalsKey: 'complaints' | 'eventOrders';
}

// The rows are plain literals (numbers, not `ChannelType.complaint`): a property read at module
// level is kept by the bundler as a possible side effect, and would put this table into the
// console's entry chunk even where nothing reads it.

/** Complaints and suggestions. */
export const COMPLAINT: WorkKind = {
  kind: 'complaint',
  noun: 'complaints',
  path: '/complain',
  replyPath: '/complainReply',
  totalsCall: 'getComplainStatusTotalVo',
  residentPath: '/app/complain',
  idField: 'complainId',
  codeField: 'complainCode',
  statusField: 'complainStatus',
  sql: {
    table: 'complain',
    replyTable: 'complain_reply',
    replyForeignKey: 'complain_id',
    codeColumn: 'complain_code',
    statusColumn: 'complain_status',
  },
  codePrefix: 'C',
  hasType: false,
  uploadKind: 'complain',
  perms: { list: 'complain:list', view: 'complain:view', update: 'complain:update', reply: 'complain:reply' },
  channel: 8, // ChannelType.complaint
  newMessage: 50, // MessageType.newComplaint
  replyMessage: 13, // MessageType.complaintReply
  totalsKey: 'complaints',
};

/** Event work orders. */
export const EVENT_ORDER: WorkKind = {
  kind: 'eventOrder',
  noun: 'event work orders',
  path: '/eventOrder',
  replyPath: '/eventReply',
  totalsCall: 'getEventOrderStatusTotalVo',
  residentPath: '/app/eventOrder',
  idField: 'eventOrderId',
  codeField: 'eventCode',
  statusField: 'eventStatus',
  sql: {
    table: 'event_order',
    replyTable: 'event_reply',
    replyForeignKey: 'event_order_id',
    codeColumn: 'event_code',
    statusColumn: 'event_status',
  },
  codePrefix: 'E',
  hasType: true,
  uploadKind: 'eventorder',
  perms: {
    list: 'eventorder:list',
    view: 'eventorder:view',
    update: 'eventorder:update',
    reply: 'eventorder:reply',
  },
  channel: 7, // ChannelType.eventOrder
  newMessage: 49, // MessageType.newEventOrder
  replyMessage: 11, // MessageType.eventReply
  totalsKey: 'eventOrders',
};

/** The work-orders kind table. */
export const WORK_KINDS: Readonly<Record<WorkKindName, WorkKind>> = { complaint: COMPLAINT, eventOrder: EVENT_ORDER };
/** Both kinds, complaints first. */
export const WORK_KIND_LIST: readonly WorkKind[] = [COMPLAINT, EVENT_ORDER];

/** The kind whose live events come on this channel (7 / 8), if any. */
export function workKindOfChannel(channel: number): WorkKind | undefined {
  return WORK_KIND_LIST.find((k) => k.channel === channel);
}
