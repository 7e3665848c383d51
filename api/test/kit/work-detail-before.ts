// One complaint or work order by id as it was read before issue 34's tenth part: the same
// json_build_object, read as a JSON value by the driver (parsed into objects, then written out
// again in the envelope), kept as the reference the JSON text answered as it is is compared with
// (api/test/work-by-id-json.test.ts).
import { sql } from 'drizzle-orm';
import type { WorkKind } from '@pm/shared';
import type { DbOrTx } from '../../src/db/open-database';
import { queryRows } from '../../src/db/sql';
import type { TenantScope } from '../../src/http/request-context';

const isoOf = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const avatarOf = (person: string) => `${person}.images->0->>'url'`;

function fields(k: WorkKind): [string, string][] {
  return [
    [k.idField, 'w.id'],
    [k.codeField, `w.${k.sql.codeColumn}`],
    [k.statusField, `w.${k.sql.statusColumn}`],
    ...(k.hasType ? [['type', 'w.type'] as [string, string]] : []),
    ['name', 'w.name'],
    ['reportPersonId', 'w.report_person_id'],
    ['reportPersonName', 'p.name'],
    ['reportPersonPhoto', avatarOf('p')],
    ['personType', 'w.person_type'],
    ['personIdentity', 'w.person_identity'],
    ['unitId', 'w.unit_id'],
    ['unitName', 'u.name'],
    ['floorName', 'f.name'],
    ['buildName', 'b.name'],
    ['carParkId', 'w.car_space_id'],
    ['carParkCode', 'cs.carpark_code'],
    ['shopId', 'w.shop_id'],
    ['shopCode', 's.shop_code'],
    ['reportTime', isoOf('w.report_time')],
    ['note', 'w.note'],
    ['img', 'w.img'],
    ['voice', 'w.voice'],
    ['personDealId', 'w.person_deal_id'],
    ['personDealName', 'dp.name'],
    ['personDealPhoto', avatarOf('dp')],
    ['dealTime', isoOf('w.deal_time')],
    ['dealNote', 'w.deal_note'],
    ['dealImg', 'w.deal_img'],
    ['personCompleteId', 'w.person_complete_id'],
    ['personCompleteName', 'cp.name'],
    ['personCompletePhoto', avatarOf('cp')],
    ['completeTime', isoOf('w.complete_time')],
    ['completeNote', 'w.complete_note'],
    ['completeImg', 'w.complete_img'],
    ['serviceComment', 'w.service_comment'],
    ['serviceScore', 'w.service_score'],
    ['serviceEfficiency', 'w.service_efficiency'],
    ['serviceAttitude', 'w.service_attitude'],
    ['serviceProcess', 'w.service_process'],
    ['replyCount', `(select count(*)::int from ${k.sql.replyTable} x where x.${k.sql.replyForeignKey} = w.id)`],
  ];
}

/** Every field of SPEC §3 for one of the estate's, as a parsed JSON value; null when not there (or not theirs). */
export async function findWorkBefore(
  db: DbOrTx,
  k: WorkKind,
  tenant: TenantScope,
  id: number,
): Promise<Record<string, unknown> | null> {
  const object = `json_build_object(${fields(k)
    .map(([name, expression]) => `'${name}', ${expression}`)
    .join(', ')})`;
  const [r] = await queryRows<{ work: Record<string, unknown> }>(
    db,
    sql`select ${sql.raw(object)} as work from ${sql.raw(k.sql.table)} w
      join person p on p.id = w.report_person_id
      left join unit u on u.id = w.unit_id
      left join floor f on f.id = u.floor_id
      left join block b on b.id = u.block_id
      left join car_space cs on cs.id = w.car_space_id
      left join shop s on s.id = w.shop_id
      left join person dp on dp.id = w.person_deal_id
      left join person cp on cp.id = w.person_complete_id
      where w.id = ${id} and w.company_id = ${tenant.companyId} and w.housing_estate_id = ${tenant.housingEstateId}`,
  );
  return r ? (typeof r.work === 'string' ? (JSON.parse(r.work) as Record<string, unknown>) : r.work) : null;
}
