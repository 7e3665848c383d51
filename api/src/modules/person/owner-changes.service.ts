import type { OwnerChangeRow } from '@pm/shared';
import type { Db } from '../../db/open-database';
import { AppError } from '../../http/app-error';
import type { Caller, TenantScope } from '../../http/request-context';
import { ownerChanges } from './owner-changes.repository';
import { HOUSE_LIST_PERMISSION } from './person.recipients';

/**
 * The estate's latest owner replacements, of the house types the staff may list (the same rule
 * as the owner-review list); 403 for a resident or staff who may list none.
 */
export function listOwnerChanges(
  db: Db,
  caller: Caller,
  tenant: TenantScope,
  limit: number,
): Promise<OwnerChangeRow[]> {
  const types = caller.kind === 'staff' ? [1, 2, 3].filter((t) => caller.perms.has(HOUSE_LIST_PERMISSION[t])) : [];
  if (types.length === 0) throw AppError.forbidden();
  return ownerChanges(db, tenant, types, limit);
}
