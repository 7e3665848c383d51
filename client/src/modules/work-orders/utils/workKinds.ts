import { COMPLAINT, EVENT_ORDER, type WorkKind as SharedWorkKind, type WorkKindName } from '@pm/shared';

/** Complaints/suggestions and event work orders: one screen, one set of calls, two kinds. */
export type { WorkKindName };

/**
 * What only the console's screens know of a kind: its screen, its test id and its translation
 * keys. Every other fact (paths, field names, permissions, upload folder, `hasType`, counters
 * key) comes from the shared kind table (`@pm/shared` work-kinds.ts).
 */
interface WorkScreen {
  /** The screen's route (shared route table) and the page's test id. */
  screenPath: string;
  testId: string;
  /** Translation keys: the code column's header and the detail's first tab. */
  codeColumn: string;
  infoTab: string;
}

const SCREENS: Readonly<Record<WorkKindName, WorkScreen>> = {
  complaint: {
    screenPath: '/complaints-suggestions/index',
    testId: 'work-page-complaint',
    codeColumn: 'workOrders.columns.complainCode',
    infoTab: 'workOrders.complaintInfo',
  },
  eventOrder: {
    screenPath: '/event-work-order/index',
    testId: 'work-page-eventOrder',
    codeColumn: 'workOrders.columns.eventCode',
    infoTab: 'workOrders.eventInfo',
  },
};

/**
 * A kind as the screens read it (STYLE.md "a variant is data"): the shared kind, its screen,
 * and its wire names in the shape the data-access layer reads (`api`).
 */
export interface WorkKind extends SharedWorkKind, WorkScreen {
  api: {
    base: SharedWorkKind['path'];
    reply: SharedWorkKind['replyPath'];
    totals: SharedWorkKind['totalsCall'];
    idField: SharedWorkKind['idField'];
    codeField: SharedWorkKind['codeField'];
    statusField: SharedWorkKind['statusField'];
  };
}

function screenOf(k: SharedWorkKind): WorkKind {
  return {
    ...k,
    ...SCREENS[k.kind],
    api: {
      base: k.path,
      reply: k.replyPath,
      totals: k.totalsCall,
      idField: k.idField,
      codeField: k.codeField,
      statusField: k.statusField,
    },
  };
}

// Pure calls on the imported rows: the bundler may drop the table from any chunk that does not
// read it (the data-access layer imports it, and the console's entry imports that layer).
export const WORK_KINDS: Readonly<Record<WorkKindName, WorkKind>> = {
  complaint: /* @__PURE__ */ screenOf(COMPLAINT),
  eventOrder: /* @__PURE__ */ screenOf(EVENT_ORDER),
};
