import { ALARM_TYPES, COMPLAINT, EVENT_ORDER, MESSAGE_PANEL_TYPES, type LiveCounters } from '@pm/shared';
import type { Db } from '../../db/open-database';
import type { AuthedContext } from '../../http/request-context';
import { chatUnreadTotal } from '../im/chat.service';
import { countUnread } from '../message/message.service';
import { statusTotals } from '../work-orders/work-orders.service';
import { currentPushSeq } from './push-journal';

const ZERO = { untreated: 0, processing: 0, completed: 0 };

/**
 * Everything the top bar and sidebar count, read in ONE repeatable-read snapshot together with
 * the person's push sequence: the answer counts exactly the pushes numbered up to `pushSeq`
 * (a push is numbered in the transaction of its change). Totals the person may not list count
 * as zero, as the calls they come from would refuse them.
 */
export async function loadCounters(ctx: AuthedContext): Promise<LiveCounters> {
  const { caller, tenant } = ctx;
  // A person's own messages; staff see only those of their company and estate (as /base/message/*).
  const owner =
    caller.kind === 'staff'
      ? { personId: caller.personId, companyId: caller.companyId, housingEstateId: caller.housingEstateId }
      : { personId: caller.personId };
  return (ctx.db as Db).transaction(
    async (tx) => {
      const pushSeq = await currentPushSeq(tx, caller.personId);
      const unreadByType = await countUnread(tx, owner, [...MESSAGE_PANEL_TYPES, ...ALARM_TYPES]);
      const chatUnread = await chatUnreadTotal(tx, caller.personId, tenant);
      const complaints = caller.perms.has(COMPLAINT.perms.list) ? await statusTotals(tx, COMPLAINT, tenant) : ZERO;
      const eventOrders = caller.perms.has(EVENT_ORDER.perms.list) ? await statusTotals(tx, EVENT_ORDER, tenant) : ZERO;
      return { unreadByType, chatUnread, complaints, eventOrders, pushSeq };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
