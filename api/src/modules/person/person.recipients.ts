import type { Permission } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { staffWithPermission } from '../realtime/recipients';

/** Staff who list a kind of house (1 unit, 2 parking space, 3 shop) hear of joins to it and review them. */
export const HOUSE_LIST_PERMISSION: Record<number, Permission> = { 1: 'unit:list', 2: 'carpark:list', 3: 'shop:list' };

/** Join / leave of a house → staff with that house type's list permission. */
export function houseStaff(db: DbOrTx, housingEstateId: number, houseType: number): Promise<number[]> {
  return staffWithPermission(db, housingEstateId, HOUSE_LIST_PERMISSION[houseType] ?? 'unit:list');
}

/** Staff who may see a kind of house's details, e.g. its certificate pictures (1 unit, 2 parking space, 3 shop). */
export const HOUSE_VIEW_PERMISSION: Record<number, Permission> = { 1: 'unit:view', 2: 'carpark:view', 3: 'shop:view' };
