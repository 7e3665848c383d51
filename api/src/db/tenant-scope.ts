import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { TenantScope } from '../http/request-context';

/** `company_id = ? and housing_estate_id = ?` for any tenant-owned table. */
export function scopedTo(table: { companyId: PgColumn; housingEstateId: PgColumn }, tenant: TenantScope): SQL {
  return and(eq(table.companyId, tenant.companyId), eq(table.housingEstateId, tenant.housingEstateId)) as SQL;
}
