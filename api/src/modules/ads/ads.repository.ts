import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AdRow } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { ad } from '../../db/schema';
import { isoOrNull, likePattern, pageRows, queryRows, scopedTo } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';

/** The estate's today, in its own time zone: an ad's period is days of the estate. */
const today = (estateId: number | SQL) =>
  sql`(now() at time zone (select he.time_zone from housing_estate he where he.id = ${estateId}))::date`;

/** What residents see of an ad now, as a state (AdRowSchema.state). */
const stateOf = (estateId: number | SQL) => sql`case
  when not a.enabled then 'off'
  when a.start_date is not null and a.start_date > ${today(estateId)} then 'scheduled'
  when a.end_date is not null and a.end_date < ${today(estateId)} then 'ended'
  else 'showing' end`;

interface AdRaw {
  id: number;
  title: string;
  image: string;
  detail_image: string | null;
  link: string | null;
  sort: number;
  enabled: boolean;
  start_date: string | null;
  end_date: string | null;
  state: AdRow['state'];
  updated_at: string | Date;
}

const toRow = (r: AdRaw): AdRow => ({
  adId: r.id,
  title: r.title,
  image: r.image,
  detailImage: r.detail_image,
  link: r.link,
  sort: r.sort,
  enabled: r.enabled,
  startDate: r.start_date,
  endDate: r.end_date,
  showing: r.state === 'showing',
  state: r.state,
  updatedAt: isoOrNull(r.updated_at)!,
});

const selectAds = (tenant: TenantScope, where: SQL) => sql`
  select a.id, a.title, a.image, a.detail_image, a.link, a.sort, a.enabled,
         a.start_date::text as start_date, a.end_date::text as end_date, a.updated_at,
         ${stateOf(tenant.housingEstateId)} as state
  from ad a
  where a.company_id = ${tenant.companyId} and a.housing_estate_id = ${tenant.housingEstateId} and ${where}`;

/** The estate's ads in their order (sort, then id), one page, with their state. */
export async function listAds(
  db: DbOrTx,
  tenant: TenantScope,
  f: { keyword?: string; showing?: boolean; page: number; limit: number },
): Promise<{ rows: AdRow[]; total: number }> {
  const parts: SQL[] = [sql`true`];
  if (f.keyword) {
    const pattern = likePattern(f.keyword);
    parts.push(sql`(a.title ilike ${pattern} or a.link ilike ${pattern})`);
  }
  if (f.showing !== undefined)
    parts.push(
      f.showing
        ? sql`${stateOf(tenant.housingEstateId)} = 'showing'`
        : sql`${stateOf(tenant.housingEstateId)} <> 'showing'`,
    );
  const where = sql.join(parts, sql` and `);
  const { rows, total } = await pageRows<AdRaw>(db, {
    select: (cut) => sql`${selectAds(tenant, where)} order by a.sort, a.id ${cut}`,
    count: sql`select count(*)::int as n from ad a
               where a.company_id = ${tenant.companyId} and a.housing_estate_id = ${tenant.housingEstateId} and ${where}`,
    page: f.page,
    limit: f.limit,
  });
  return { rows: rows.map(toRow), total };
}

export async function findAd(db: DbOrTx, tenant: TenantScope, id: number): Promise<AdRow | undefined> {
  const [row] = await queryRows<AdRaw>(db, sql`${selectAds(tenant, sql`a.id = ${id}`)}`);
  return row && toRow(row);
}

export type AdValues = Pick<typeof ad.$inferInsert, 'title' | 'image' | 'detailImage' | 'link' | 'enabled'> & {
  startDate: string | null;
  endDate: string | null;
};

/** The sort value after the estate's last ad. */
async function nextSort(db: DbOrTx, tenant: TenantScope): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select coalesce(max(sort), 0)::int + 1 as n from ad
        where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  return row?.n ?? 1;
}

export async function insertAd(db: DbOrTx, tenant: TenantScope, values: AdValues, sort?: number): Promise<number> {
  const [row] = await db
    .insert(ad)
    .values({ ...tenant, ...values, sort: sort ?? (await nextSort(db, tenant)) })
    .returning({ id: ad.id });
  return row.id;
}

/** Changes one ad of the estate; false when the estate has no such ad. */
export async function updateAd(
  db: DbOrTx,
  tenant: TenantScope,
  id: number,
  values: Partial<AdValues> & { sort?: number },
): Promise<boolean> {
  const rows = await db
    .update(ad)
    .set({ ...values, updatedAt: new Date() })
    .where(and(scopedTo(ad, tenant), eq(ad.id, id)))
    .returning({ id: ad.id });
  return rows.length > 0;
}

/** The pictures an ad holds now (a change may keep them without proving who uploaded them). */
export async function picturesOf(db: DbOrTx, tenant: TenantScope, id: number): Promise<string[] | null> {
  const [row] = await db
    .select({ image: ad.image, detailImage: ad.detailImage })
    .from(ad)
    .where(and(scopedTo(ad, tenant), eq(ad.id, id)))
    .limit(1);
  return row ? [row.image, row.detailImage].filter((p): p is string => !!p) : null;
}

/** Deletes those of the ids that are the estate's; answers how many. */
export async function deleteAds(db: DbOrTx, tenant: TenantScope, ids: number[]): Promise<number> {
  const rows = await db
    .delete(ad)
    .where(and(scopedTo(ad, tenant), inArray(ad.id, ids)))
    .returning({ id: ad.id });
  return rows.length;
}

/** The estate's ad ids in their order, locked for a reorder. */
export async function orderedIds(db: DbOrTx, tenant: TenantScope): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from ad where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
        order by sort, id for update`,
  );
  return rows.map((r) => r.id);
}

/** Gives the ads sort values 1, 2, 3 … in the order of `ids` (one statement). */
export async function writeOrder(db: DbOrTx, tenant: TenantScope, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const values = sql.join(
    ids.map((id, i) => sql`(${id}::int, ${i + 1}::int)`),
    sql`, `,
  );
  await db.execute(sql`update ad set sort = v.sort, updated_at = now()
                       from (values ${values}) as v(id, sort)
                       where ad.id = v.id and ad.company_id = ${tenant.companyId}
                         and ad.housing_estate_id = ${tenant.housingEstateId} and ad.sort <> v.sort`);
}

/** What a resident's app shows: the estate's ads that are on and inside their period today, in order. */
export async function showingAds(
  db: DbOrTx,
  estateId: number,
  limit: number,
): Promise<{ id: number; title: string; image: string; detail_image: string | null; link: string | null }[]> {
  return queryRows(
    db,
    sql`select a.id, a.title, a.image, a.detail_image, a.link from ad a
        where a.housing_estate_id = ${estateId} and a.enabled
          and (a.start_date is null or a.start_date <= ${today(estateId)})
          and (a.end_date is null or a.end_date >= ${today(estateId)})
        order by a.sort, a.id
        limit ${limit}`,
  );
}
