import type { z } from 'zod';
import type { WorkStatus } from '../enums';
import { WORK_KINDS, workKindOfChannel } from '../work-kinds';
import { defineTopic } from './define-topic';

/** Untreated / processing / completed totals of complaints or work orders (`StatusTotalsSchema`). */
export const statusTotalsSchema = (zod: typeof z) =>
  zod.object({
    untreated: zod.number().int(),
    processing: zod.number().int(),
    completed: zod.number().int(),
  });
export type StatusTotals = z.infer<ReturnType<typeof statusTotalsSchema>>;

/** What the api pushes with a complaint or work-order event. */
export type WorkOrderPayload = {
  /** The theme. */
  name?: string | null;
  messageTime?: string;
  /** The new status of a status change (2 processing, 3 completed); 1 on a new one. */
  status?: WorkStatus;
  /** The complaint or work-order code of a new one. */
  code?: string;
  /** The reply a reply message is about. */
  replyId?: number;
  /** An event work order's type (1–5). */
  type?: number;
};

interface WorkOrderFields {
  kind: 'complaint' | 'eventOrder';
  /** new: reported; reply: a reply was added; status: dealt with or completed. */
  action: 'new' | 'reply' | 'status';
}

const EVENT_ORDER_VIEW = { perm: 'eventorder:view', path: '/event-work-order/index', opensRecord: true } as const;
const COMPLAINT_VIEW = { perm: 'complain:view', path: '/complaints-suggestions/index', opensRecord: true } as const;

function action(messageType: number | undefined, created: number, reply: number): WorkOrderFields['action'] {
  if (messageType === created) return 'new';
  if (messageType === reply) return 'reply';
  return 'status';
}

const zero = () => ({ untreated: 0, processing: 0, completed: 0 });

/** Complaints / suggestions (event 8) and event work orders (event 7). */
export const workorders = defineTopic<WorkOrderFields, WorkOrderPayload>()({
  name: 'workorders',
  // wall:view: the read-only wall screen (issue 22) counts them.
  permissions: ['eventorder:list', 'complain:list', 'wall:view'],
  channels: { eventOrder: 7, complaint: 8 },
  messageTypes: {
    eventReply: { type: 11, panel: 'messages', counted: true, view: EVENT_ORDER_VIEW },
    complaintReply: { type: 13, panel: 'messages', counted: true, view: COMPLAINT_VIEW },
    newEventOrder: { type: 49, panel: 'messages', counted: false, view: EVENT_ORDER_VIEW },
    newComplaint: { type: 50, panel: 'messages', counted: false, view: COMPLAINT_VIEW },
  },
  classify: (m) => {
    // The kind table (shared/src/work-kinds.ts) says which kind an event number is, and its message types.
    const k = workKindOfChannel(m.channelType) ?? WORK_KINDS.complaint;
    return { kind: k.kind, action: action(m.messageType, k.newMessage, k.replyMessage) };
  },
  counters: {
    shape: { complaints: statusTotalsSchema, eventOrders: statusTotalsSchema },
    zero: () => ({ complaints: zero(), eventOrders: zero() }),
    // A new one raises "untreated"; a status change moves one from untreated to processing or
    // processing to completed (`payload.status` is the new status).
    apply: (own, e) => {
      const totals = own[WORK_KINDS[e.kind].totalsKey];
      if (e.action === 'new') totals.untreated += 1;
      if (e.action !== 'status') return;
      const status = Number(e.payload.status);
      if (status === 2 && totals.untreated > 0) {
        totals.untreated -= 1;
        totals.processing += 1;
      } else if (status === 3 && totals.processing > 0) {
        totals.processing -= 1;
        totals.completed += 1;
      }
    },
  },
  // One toast per action: the echo of a tab's own deal or complete says nothing more there.
  toast: (e) => ({
    level: 'info',
    key: `messages.toasts.${e.kind}_${e.action}`,
    echoKey:
      e.action === 'status' && e.dataId !== undefined
        ? `workorders:${e.kind}:${e.dataId}:${Number(e.payload.status)}`
        : undefined,
  }),
});
