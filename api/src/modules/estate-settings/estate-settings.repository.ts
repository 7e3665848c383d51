import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/open-database';
import { estateSettingsChange, housingEstate, person } from '../../db/schema';
import { queryRows } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';

/** The estate's row as the settings read it: its own values (null where it set none). */
export interface EstateRow {
  id: number;
  companyId: number;
  name: string;
  address: string | null;
  logo: string | null;
  timeZone: string;
  defaultLanguage: string | null;
  sosReannounceSeconds: number | null;
  voteReminderUnitMs: number | null;
  settingsUpdatedAt: Date | null;
}

const columns = {
  id: housingEstate.id,
  companyId: housingEstate.companyId,
  name: housingEstate.name,
  address: housingEstate.address,
  logo: housingEstate.logo,
  timeZone: housingEstate.timeZone,
  defaultLanguage: housingEstate.defaultLanguage,
  sosReannounceSeconds: housingEstate.sosReannounceSeconds,
  voteReminderUnitMs: housingEstate.voteReminderUnitMs,
  settingsUpdatedAt: housingEstate.settingsUpdatedAt,
};

export async function findEstate(db: DbOrTx, estateId: number): Promise<EstateRow | undefined> {
  const [row] = await db.select(columns).from(housingEstate).where(eq(housingEstate.id, estateId)).limit(1);
  return row;
}

/** The estate's row locked for a change (two administrators saving at once take turns). */
export async function lockEstate(db: DbOrTx, tenant: TenantScope): Promise<EstateRow | undefined> {
  const [row] = await db
    .select(columns)
    .from(housingEstate)
    .where(and(eq(housingEstate.id, tenant.housingEstateId), eq(housingEstate.companyId, tenant.companyId)))
    .for('update')
    .limit(1);
  return row;
}

export type EstateChange = Partial<Omit<EstateRow, 'id' | 'companyId' | 'settingsUpdatedAt'>>;

export async function updateEstate(db: DbOrTx, estateId: number, change: EstateChange, at: Date): Promise<void> {
  await db
    .update(housingEstate)
    .set({ ...change, settingsUpdatedAt: at })
    .where(eq(housingEstate.id, estateId));
}

export async function insertSettingsChange(
  db: DbOrTx,
  tenant: TenantScope,
  row: { personId: number; before: Record<string, unknown>; after: Record<string, unknown>; at: Date },
): Promise<void> {
  await db
    .insert(estateSettingsChange)
    .values({ ...tenant, personId: row.personId, before: row.before, after: row.after, createdAt: row.at });
}

/** Who made the estate's last settings change (null before the first). */
export async function lastChangeBy(db: DbOrTx, estateId: number): Promise<string | null> {
  const [row] = await db
    .select({ name: person.name })
    .from(estateSettingsChange)
    .innerJoin(person, eq(person.id, estateSettingsChange.personId))
    .where(eq(estateSettingsChange.housingEstateId, estateId))
    .orderBy(desc(estateSettingsChange.createdAt), desc(estateSettingsChange.id))
    .limit(1);
  return row?.name ?? null;
}

/** Whether the database knows the time zone (its day counters and day filters count in it). */
export async function databaseKnowsZone(db: DbOrTx, timeZone: string): Promise<boolean> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from pg_timezone_names where name = ${timeZone}`,
  );
  return (rows[0]?.n ?? 0) > 0;
}

/** Every enabled staff account's person of the estate (the estate topic's recipients). */
export async function estateStaff(db: DbOrTx, estateId: number): Promise<number[]> {
  const rows = await queryRows<{ person_id: number }>(
    db,
    sql`select distinct person_id from account
        where housing_estate_id = ${estateId} and kind = 'staff' and enabled`,
  );
  return rows.map((r) => r.person_id);
}

/**
 * Whether every path is a picture (sniffed as an image on upload) that staff of this estate
 * uploaded: the estate's logo and its ads use only those.
 */
export async function estateStaffPictures(db: DbOrTx, tenant: TenantScope, paths: string[]): Promise<boolean> {
  if (paths.length === 0) return true;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(distinct u.path)::int as n from upload_file u
        where u.company_id = ${tenant.companyId} and u.housing_estate_id = ${tenant.housingEstateId}
          and u.content_type = 'image'
          and u.path in (${sql.join(
            paths.map((p) => sql`${p}`),
            sql`, `,
          )})
          and exists (select 1 from account a where a.person_id = u.person_id and a.kind = 'staff')`,
  );
  return (row?.n ?? 0) === new Set(paths).size;
}
