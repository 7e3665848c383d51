import { sql, type SQL } from 'drizzle-orm';
import type { MessageRow } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { preparedQuery, type PreparedQuery } from '../../db/prepared';
import { dayRange, queryRows } from '../../db/sql';

/** Whose messages: a person, and for staff also their company and estate. */
export interface MessageOwner {
  personId: number;
  companyId?: number;
  housingEstateId?: number;
}

interface RawRow {
  message_id: number;
  message_type: number;
  message_time: Date | string;
  data_id: number | null;
  read_status: boolean;
  person_house_history_id: number | null;
  person_trigger_id: number | null;
  trigger_name: string | null;
  trigger_images: { url: string }[] | null;
  name: string | null;
  unit_id: number | null;
  unit_name: string | null;
  build_name: string | null;
  floor_name: string | null;
  car_space_id: number | null;
  carpark_code: string | null;
  shop_id: number | null;
  shop_code: string | null;
  position: string | null;
  disaster_type: number | null;
}

function ownerWhere(owner: MessageOwner): SQL {
  const parts = [sql`m.person_id = ${owner.personId}`];
  if (owner.companyId !== undefined) parts.push(sql`m.company_id = ${owner.companyId}`);
  if (owner.housingEstateId !== undefined) parts.push(sql`m.housing_estate_id = ${owner.housingEstateId}`);
  return sql.join(parts, sql` and `);
}

function typeFilter(types: number[] | undefined): SQL {
  if (!types || types.length === 0) return sql``;
  return sql` and m.message_type in (${sql.join(
    types.map((t) => sql`${t}`),
    sql`, `,
  )})`;
}

function toRow(r: RawRow): MessageRow {
  const houseType = r.unit_id !== null ? 1 : r.car_space_id !== null ? 2 : r.shop_id !== null ? 3 : null;
  const unit =
    r.unit_id !== null
      ? { name: r.unit_name ?? '', buildName: r.build_name ?? '', floorName: r.floor_name ?? '' }
      : null;
  return {
    messageId: r.message_id,
    messageType: r.message_type,
    messageTime: new Date(r.message_time).toISOString(),
    dataId: r.data_id,
    readStatus: r.read_status ? 1 : 0,
    personHouseHistoryId: r.person_house_history_id,
    personTriggerId: r.person_trigger_id,
    personTrigger: r.trigger_name !== null ? { name: r.trigger_name, images: r.trigger_images ?? [] } : null,
    name: r.name,
    houseType,
    unit,
    carpark: r.car_space_id !== null ? { carparkCode: r.carpark_code ?? '' } : null,
    shop: r.shop_id !== null ? { shopCode: r.shop_code ?? '' } : null,
    position: r.position,
    disasterWarnEntity: r.disaster_type !== null ? { type: r.disaster_type } : null,
    // The house the message is about (an SOS call's house), in the shape of SPEC §3.
    disasterWarnPersonVoList:
      houseType === null
        ? []
        : [
            {
              houseType,
              unitName: unit?.name ?? null,
              floorName: unit?.floorName ?? null,
              buildName: unit?.buildName ?? null,
              carParkCode: r.carpark_code,
              shopCode: r.shop_code,
            },
          ],
  };
}

/** A page of the owner's messages, newest first. */
export async function listMessages(
  db: DbOrTx,
  owner: MessageOwner,
  filter: { types?: number[]; read?: boolean; startTime?: string; endTime?: string; limit: number; offset: number },
): Promise<{ rows: MessageRow[]; total: number }> {
  // Days of the caller's estate; a resident's messages each by their own estate's zone.
  const days = dayRange(
    sql`m.message_time`,
    owner.housingEstateId ?? sql`m.housing_estate_id`,
    filter.startTime,
    filter.endTime,
  );
  const where = sql`${ownerWhere(owner)}${typeFilter(filter.types)}${
    filter.read === undefined ? sql`` : sql` and m.read_status = ${filter.read}`
  }${sql.join(days.map((d) => sql` and ${d}`))}`;
  const [count] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from message m where ${where}`);
  const rows = await queryRows<RawRow>(
    db,
    sql`select m.id as message_id, m.message_type, m.message_time, m.data_id, m.read_status,
               m.person_house_history_id, m.person_trigger_id, p.name as trigger_name, p.images as trigger_images,
               m.name, m.unit_id, u.name as unit_name, b.name as build_name, f.name as floor_name,
               m.car_space_id, cs.carpark_code, m.shop_id, s.shop_code, m.position, dw.type as disaster_type
        from message m
        left join person p on p.id = m.person_trigger_id
        left join unit u on u.id = m.unit_id
        left join block b on b.id = u.block_id
        left join floor f on f.id = u.floor_id
        left join car_space cs on cs.id = m.car_space_id
        left join shop s on s.id = m.shop_id
        left join disaster_warn dw on dw.id = m.disaster_warn_id
        where ${where}
        order by m.message_time desc, m.id desc
        limit ${filter.limit} offset ${filter.offset}`,
  );
  return { rows: rows.map(toRow), total: count?.n ?? 0 };
}

/** Prepared unread counts, by owner kind (staff: company and estate too) and number of types (issue 34). */
const unreadQueries = new Map<string, PreparedQuery<{ message_type: number; n: number }, Record<string, number>>>();

/**
 * The unread counts of the owner's messages of `typeCount` types, with placeholders personId (and
 * companyId, housingEstateId for staff) and t0… for the types; the shape is named by `unreadShape`.
 */
export function unreadSql(owner: MessageOwner, typeCount: number, p: (name: string) => SQL): SQL {
  const owned = isStaffOwner(owner)
    ? sql`m.person_id = ${p('personId')} and m.company_id = ${p('companyId')} and m.housing_estate_id = ${p('housingEstateId')}`
    : sql`m.person_id = ${p('personId')}`;
  const types = Array.from({ length: typeCount }, (_, i) => p(`t${i}`));
  return sql`select m.message_type, count(*)::int as n from message m
          where ${owned} and m.read_status = false and m.message_type in (${sql.join(types, sql`, `)})
          group by m.message_type`;
}

const isStaffOwner = (owner: MessageOwner) => owner.companyId !== undefined && owner.housingEstateId !== undefined;

/** Names the shape of `unreadSql` for this owner and number of types. */
export const unreadShape = (owner: MessageOwner, typeCount: number) =>
  `${isStaffOwner(owner) ? 'staff' : 'person'}.${typeCount}`;

/** The values of `unreadSql`'s placeholders. */
export function unreadValues(owner: MessageOwner, types: readonly number[]): Record<string, number> {
  const values: Record<string, number> = { personId: owner.personId };
  if (owner.companyId !== undefined) values.companyId = owner.companyId;
  if (owner.housingEstateId !== undefined) values.housingEstateId = owner.housingEstateId;
  types.forEach((t, i) => (values[`t${i}`] = t));
  return values;
}

/** Unread counts by type from the rows of `unreadSql`; every requested type is present, zeros included. */
export function readUnread(types: readonly number[] | undefined, rows: { message_type: unknown; n: unknown }[]) {
  const byType: Record<string, number> = {};
  for (const t of types ?? []) byType[String(t)] = 0;
  for (const r of rows) byType[String(r.message_type)] = Number(r.n);
  return byType;
}

function unreadQuery(owner: MessageOwner, typeCount: number) {
  const key = unreadShape(owner, typeCount);
  let query = unreadQueries.get(key);
  if (!query) {
    query = preparedQuery(`message.unread.${key}`, (p) => unreadSql(owner, typeCount, p));
    unreadQueries.set(key, query);
  }
  return query;
}

/** Unread counts by type; every requested type is present, zeros included. */
export async function countUnread(
  db: DbOrTx,
  owner: MessageOwner,
  types: number[] | undefined,
): Promise<Record<string, number>> {
  let rows: { message_type: number; n: number }[];
  if (
    types &&
    types.length > 0 &&
    types.length <= 32 &&
    (owner.companyId === undefined) === (owner.housingEstateId === undefined)
  ) {
    rows = await unreadQuery(owner, types.length)(db, unreadValues(owner, types));
  } else {
    rows = await queryRows<{ message_type: number; n: number }>(
      db,
      sql`select m.message_type, count(*)::int as n from message m
          where ${ownerWhere(owner)} and m.read_status = false${typeFilter(types)}
          group by m.message_type`,
    );
  }
  return readUnread(types, rows);
}

/**
 * Marks one of the owner's messages read (idempotent): its type and whether it was unread until now
 * (concurrent calls: only one of them finds it unread), or null when it is not the owner's.
 */
export async function markRead(
  db: DbOrTx,
  owner: MessageOwner,
  messageId: number,
): Promise<{ messageType: number; wasUnread: boolean } | null> {
  const rows = await queryRows<{ message_type: number; was_unread: boolean }>(
    db,
    sql`update message set read_status = true
        from (select m.id, m.read_status from message m where m.id = ${messageId} and ${ownerWhere(owner)} for update) old
        where message.id = old.id
        returning message.message_type, not old.read_status as was_unread`,
  );
  return rows.length ? { messageType: Number(rows[0].message_type), wasUnread: rows[0].was_unread } : null;
}
