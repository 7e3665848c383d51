import type { WorkKind } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { staffWithPermission } from '../realtime/recipients';
import { workHandlers } from './work-orders.repository';

/** Who is told of a work-orders event (SPEC §6, §7). */

/** A new one, or a status change → the estate's staff with the kind's list permission. */
export async function listingStaff(db: DbOrTx, k: WorkKind, housingEstateId: number): Promise<number[]> {
  const staff = await staffWithPermission(db, housingEstateId, k.perms.list);
  // The estate's wall screens (wall:view, issue 22) count unfinished requests live.
  const walls = await staffWithPermission(db, housingEstateId, 'wall:view');
  return [...new Set([...staff, ...walls])];
}

/**
 * A resident's reply → the staff handling the request (who dealt with or completed it); while
 * nobody has taken it yet, every staff member who lists such requests.
 */
export async function handlingStaff(db: DbOrTx, k: WorkKind, id: number): Promise<number[]> {
  const work = await workHandlers(db, k, id);
  if (!work) return [];
  const handlers = [work.deal, work.complete].filter((p): p is number => p !== null);
  if (handlers.length > 0) return [...new Set(handlers)];
  return listingStaff(db, k, work.housingEstateId);
}
