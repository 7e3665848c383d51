import { sql, type SQL } from 'drizzle-orm';
import { HouseStatus, HouseType } from '@pm/shared';
import type { DbOrTx } from '../../db/database-types';

/**
 * The one place a house's status (HouseStatus in shared/src/enums.ts, which states the rules)
 * is worked out. Every change of a house's people calls `refreshHouseStatus` in its own
 * transaction, so the stored `house_status` the lists filter by is never stale; `unit.auth_status`
 * (SPEC §3 "1 bound, 2 unbound") follows it: 1 while the house has an approved owner.
 */

/** The house tables and the column that links person_house / person_house_history rows to them. */
const HOUSES = {
  [HouseType.residential]: { table: sql.raw('unit'), link: sql.raw('unit_id') },
  [HouseType.parking]: { table: sql.raw('car_space'), link: sql.raw('car_space_id') },
  [HouseType.merchant]: { table: sql.raw('shop'), link: sql.raw('shop_id') },
} as const;

/** A constant of our own enumerations, inlined (a bound parameter would be text to PostgreSQL). */
const n = (value: number): SQL => sql.raw(String(Math.trunc(value)));

/** person_house.status: 1 pending review, 2 approved (3 refused counts as no link). */
function statusCase(link: SQL): SQL {
  const links = (where: string) =>
    sql`exists (select 1 from person_house ph where ph.${link} = h.id and ${sql.raw(where)})`;
  return sql`case
    when ${links('ph.identity = 1 and ph.status = 2 and ph.auth_status = 1')} then ${n(HouseStatus.bound)}
    when ${links('ph.identity = 1 and ph.status = 2')} then ${n(HouseStatus.verified)}
    when ${links('ph.identity = 1 and ph.status = 1')} then ${n(HouseStatus.notCertified)}
    when exists (select 1 from person_house_history hh
                 where hh.${link} = h.id and hh.identity = 1 and hh.leave_time is not null) then ${n(HouseStatus.unbound)}
    when ${links('ph.status in (1, 2)')} then ${n(HouseStatus.noOwner)}
    else ${n(HouseStatus.unregistered)} end`;
}

/** The UPDATE that recomputes house_status and auth_status of the houses `where` selects. */
export function houseStatusUpdate(houseType: HouseType, where: SQL): SQL {
  const { table, link } = HOUSES[houseType];
  return sql`update ${table} h set
    house_status = ${statusCase(link)},
    auth_status = case when exists (select 1 from person_house ph
      where ph.${link} = h.id and ph.identity = 1 and ph.status = 2) then 1 else 2 end
    where ${where}`;
}

/** Recomputes the status of some houses of one kind; call it in the transaction that changed their people. */
export async function refreshHouseStatus(tx: DbOrTx, houseType: number, houseIds: readonly number[]): Promise<void> {
  if (houseIds.length === 0 || !(houseType in HOUSES)) return;
  const ids = sql.join(
    houseIds.map((id) => sql`${id}::int`),
    sql`, `,
  );
  await tx.execute(houseStatusUpdate(houseType as HouseType, sql`h.id in (${ids})`));
}

/** Recomputes every house of an estate (seeding, repairs). */
export async function refreshEstateHouseStatus(tx: DbOrTx, housingEstateId: number): Promise<void> {
  for (const houseType of [HouseType.residential, HouseType.parking, HouseType.merchant])
    await tx.execute(houseStatusUpdate(houseType, sql`h.housing_estate_id = ${housingEstateId}`));
}
