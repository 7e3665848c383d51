import { sql } from 'drizzle-orm';
import type { OwnerChangeRow } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { isoOrNull, queryRows } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';

interface RawOwnerChange {
  id: number;
  person_id: number;
  name: string;
  new_owner_name: string | null;
  house_type: number;
  house_id: number;
  build_name: string | null;
  floor_name: string | null;
  unit_name: string | null;
  carpark_code: string | null;
  shop_code: string | null;
  leave_time: string | Date;
  operation_type: number;
}

/**
 * The owners (identity 1) who left a house of the estate, of the given house types, newest
 * departure first, with the house's approved owner now (one per house). History rows without a
 * leave time are joins, not departures. The page of history rows is cut before the joins.
 */
export async function ownerChanges(
  db: DbOrTx,
  tenant: TenantScope,
  houseTypes: number[],
  limit: number,
): Promise<OwnerChangeRow[]> {
  const rows = await queryRows<RawOwnerChange>(
    db,
    sql`select hh.id, hh.person_id, p.name, hh.house_type, coalesce(hh.unit_id, hh.car_space_id, hh.shop_id) as house_id,
           b.name as build_name, f.name as floor_name, u.name as unit_name, cs.carpark_code, s.shop_code,
           hh.leave_time, hh.operation_type,
           case hh.house_type
             when 1 then (select np.name from person_house o join person np on np.id = o.person_id
                          where o.unit_id = hh.unit_id and o.identity = 1 and o.status = 2 limit 1)
             when 2 then (select np.name from person_house o join person np on np.id = o.person_id
                          where o.car_space_id = hh.car_space_id and o.identity = 1 and o.status = 2 limit 1)
             else (select np.name from person_house o join person np on np.id = o.person_id
                   where o.shop_id = hh.shop_id and o.identity = 1 and o.status = 2 limit 1) end as new_owner_name
      from (select * from person_house_history h
             where h.company_id = ${tenant.companyId} and h.housing_estate_id = ${tenant.housingEstateId}
               and h.identity = 1 and h.leave_time is not null and h.house_type in (${sql.join(
                 houseTypes.map((t) => sql`${t}`),
                 sql`, `,
               )})
             order by h.leave_time desc, h.id desc limit ${limit}) hh
      join person p on p.id = hh.person_id
      left join unit u on u.id = hh.unit_id
      left join block b on b.id = u.block_id
      left join floor f on f.id = u.floor_id
      left join car_space cs on cs.id = hh.car_space_id
      left join shop s on s.id = hh.shop_id
     order by hh.leave_time desc, hh.id desc`,
  );
  return rows.map((r) => ({
    personHouseHistoryId: r.id,
    personId: r.person_id,
    name: r.name,
    newOwnerName: r.new_owner_name,
    houseType: r.house_type,
    houseId: r.house_id,
    buildName: r.build_name,
    floorName: r.floor_name,
    unitName: r.unit_name,
    carParkCode: r.carpark_code,
    shopCode: r.shop_code,
    leaveTime: isoOrNull(r.leave_time) as string,
    operationType: r.operation_type,
  }));
}
