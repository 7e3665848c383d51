import type { DbOrTx } from '../../db/open-database';
import { staffWithPermission } from '../realtime/recipients';

/** Who is told of an announcement event besides its recipients: the estate's staff who list announcements. */
export function listingStaff(db: DbOrTx, housingEstateId: number): Promise<number[]> {
  return staffWithPermission(db, housingEstateId, 'bulletin:list');
}
