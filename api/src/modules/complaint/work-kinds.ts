import { ChannelType, MessageType, type ChannelOf, type MessageTypeOf, type Permission } from '@pm/shared';

/**
 * Complaints/suggestions and event work orders share one shape (SPEC §3, §4); this is
 * everything that differs between the two. The table and column names here are constants of
 * the code, never input, so the repository may splice them into SQL.
 */
export interface WorkKind {
  kind: 'complaint' | 'eventOrder';
  table: 'complain' | 'event_order';
  replyTable: 'complain_reply' | 'event_reply';
  replyForeignKey: 'complain_id' | 'event_order_id';
  codeColumn: 'complain_code' | 'event_code';
  statusColumn: 'complain_status' | 'event_status';
  /** Field names in answers and bodies. */
  idField: 'complainId' | 'eventOrderId';
  codeField: 'complainCode' | 'eventCode';
  statusField: 'complainStatus' | 'eventStatus';
  hasType: boolean;
  /** Path prefixes: `/complain/…` and `/complainReply/…`. */
  path: '/complain' | '/eventOrder';
  replyPath: '/complainReply' | '/eventReply';
  totalsCall: 'getComplainStatusTotalVo' | 'getEventOrderStatusTotalVo';
  perms: { list: Permission; view: Permission; update: Permission; reply: Permission };
  channel: ChannelOf<'workorders'>;
  /** Its status totals in the live counters. */
  counters: 'complaints' | 'eventOrders';
  /** Message type a staff reply leaves for the reporter. */
  replyMessage: MessageTypeOf<'workorders'>;
}

export const COMPLAINT: WorkKind = {
  kind: 'complaint',
  table: 'complain',
  replyTable: 'complain_reply',
  replyForeignKey: 'complain_id',
  codeColumn: 'complain_code',
  statusColumn: 'complain_status',
  idField: 'complainId',
  codeField: 'complainCode',
  statusField: 'complainStatus',
  hasType: false,
  path: '/complain',
  replyPath: '/complainReply',
  totalsCall: 'getComplainStatusTotalVo',
  perms: { list: 'complain:list', view: 'complain:view', update: 'complain:update', reply: 'complain:reply' },
  channel: ChannelType.complaint,
  counters: 'complaints',
  replyMessage: MessageType.complaintReply,
};

export const EVENT_ORDER: WorkKind = {
  kind: 'eventOrder',
  table: 'event_order',
  replyTable: 'event_reply',
  replyForeignKey: 'event_order_id',
  codeColumn: 'event_code',
  statusColumn: 'event_status',
  idField: 'eventOrderId',
  codeField: 'eventCode',
  statusField: 'eventStatus',
  hasType: true,
  path: '/eventOrder',
  replyPath: '/eventReply',
  totalsCall: 'getEventOrderStatusTotalVo',
  perms: { list: 'eventorder:list', view: 'eventorder:view', update: 'eventorder:update', reply: 'eventorder:reply' },
  channel: ChannelType.eventOrder,
  counters: 'eventOrders',
  replyMessage: MessageType.eventReply,
};
