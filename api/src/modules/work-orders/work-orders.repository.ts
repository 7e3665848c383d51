import { sql, type SQL } from 'drizzle-orm';
import type { WorkDetailData, WorkKind, WorkRowData, WorkStats } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { preparedQuery, type PreparedQuery } from '../../db/prepared';
import { dayRange, isoOrNull as iso, likePattern, queryRows } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';
import { JsonText } from '../../http/json-text';
import type { WorkFilter } from '@pm/shared';

export type { WorkFilter };

const avatar = (images: unknown): string | null => {
  const list = (typeof images === 'string' ? JSON.parse(images) : images) as { url?: string }[] | null;
  return list?.[0]?.url ?? null;
};

/** A timestamptz as JSON's ISO string, milliseconds truncated as `Date.toISOString` of it gives. */
const isoOf = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A person's avatar: the first of their images (null when none). */
const avatarOf = (person: string) => `${person}.images->0->>'url'`;

/** An answer's fields as `json_build_object` of (name, SQL expression) pairs. */
const jsonObject = (fields: [string, string][]) =>
  `json_build_object(${fields.map(([name, expression]) => `'${name}', ${expression}`).join(', ')})`;

/**
 * A list row (SPEC §3) as JSON, under the kind's field names, built by PostgreSQL (issue 34):
 * the driver parses one JSON value per row instead of twenty typed columns, and the api answers
 * the objects as they come. The reporter's name and avatar and the house's names are kept on
 * the row by migration 0045's triggers: a page reads the work table alone, not six others per row.
 */
function rowFields(k: WorkKind): [string, string][] {
  return [
    [k.idField, 'w.id'],
    [k.codeField, `w.${k.sql.codeColumn}`],
    [k.statusField, `w.${k.sql.statusColumn}`],
    ...(k.hasType ? [['type', 'w.type'] as [string, string]] : []),
    ['name', 'w.name'],
    ['reportPersonId', 'w.report_person_id'],
    ['reportPersonName', 'w.report_person_name'],
    ['reportPersonPhoto', 'w.report_person_photo'],
    ['personType', 'w.person_type'],
    ['personIdentity', 'w.person_identity'],
    ['unitId', 'w.unit_id'],
    ['unitName', 'w.unit_name'],
    ['floorName', 'w.floor_name'],
    ['buildName', 'w.build_name'],
    ['carParkId', 'w.car_space_id'],
    ['carParkCode', 'w.carpark_code'],
    ['shopId', 'w.shop_id'],
    ['shopCode', 'w.shop_code'],
    ['reportTime', isoOf('w.report_time')], // never null (report_time not null)
  ];
}

/**
 * A list row's JSON built from the row `w` on the spot: what migration 0046's triggers keep in
 * `w.list_json` (tests compare the two; the record by id builds it this way, with its own fields).
 */
export const listRowJsonSql = (k: WorkKind): string => `${jsonObject(rowFields(k))}::text`;

/** The row's table as `w` (its display columns kept by migration 0045's triggers). */
function rowFrom(k: WorkKind): string {
  return `from ${k.sql.table} w`;
}

/** The list's order: newest report first. */
const NEWEST_FIRST = 'w.report_time desc, w.id desc';

/**
 * A page of rows as one JSON array (`[]` when empty), the page's ids cut by `ids` (a subquery over `w`).
 * Each row's JSON is kept on the row (`list_json`, made by migration 0046's triggers from the same
 * fields as `rowFields`), so the page joins ten texts as `json_agg` of those objects would write them
 * (elements separated by ", ") instead of building ten objects on every read (issue 34).
 */
function pageJson(k: WorkKind, ids: SQL): SQL {
  return sql`(select coalesce('[' || string_agg(w.list_json, ', ' order by ${sql.raw(NEWEST_FIRST)}) || ']', '[]')
      ${sql.raw(rowFrom(k))}
      join (${ids}) page on page.id = w.id)`;
}

/**
 * The first page of rows as one JSON array, as `pageJson` answers it, read straight from the
 * list's index (`rows`: a subquery over `w` answering `list_json`, `report_time` and `id`, newest
 * first): with no rows to skip, the deferred join's ten primary-key probes after the index are
 * work for nothing (README Part 25: about a fifth of the page's statement).
 */
function firstPageJson(rows: SQL): SQL {
  return sql`(select coalesce('[' || string_agg(w.list_json, ', ' order by ${sql.raw(NEWEST_FIRST)}) || ']', '[]')
      from (${rows}) w)`;
}

/** The fields named after the kind: complainId, complainCode, complainStatus or eventOrderId, eventCode, eventStatus. */
export type WorkKeyFields = Partial<Record<WorkKind['idField'] | WorkKind['statusField'], number>> &
  Partial<Record<WorkKind['codeField'], string>>;

/** A list row (SPEC §3) under its kind's field names; `type` only for work orders. */
export type WorkRow = WorkKeyFields & WorkRowData & { type?: number | null };

/** Every field of one (SPEC §3): the row, the deal and complete steps, ratings and reply count. */
export type WorkDetail = WorkRow & WorkDetailData;

function whereOf(k: WorkKind, tenant: TenantScope, f: WorkFilter): SQL {
  const parts: SQL[] = [sql`w.company_id = ${tenant.companyId}`, sql`w.housing_estate_id = ${tenant.housingEstateId}`];
  if (f.status) parts.push(sql`${sql.raw(`w.${k.sql.statusColumn}`)} = ${f.status}`);
  if (f.type && k.hasType) parts.push(sql`w.type = ${f.type}`);
  if (f.houseType) parts.push(sql`w.person_type = ${f.houseType}`);
  parts.push(...dayRange(sql`w.report_time`, tenant.housingEstateId, f.startTime, f.endTime));
  if (f.keyword) {
    // Code, theme or reporter name. Written as a union of id sets so each part can use its
    // trigram index (migration 0003) instead of one OR across a join that scans every row.
    const like = likePattern(f.keyword);
    const table = sql.raw(k.sql.table);
    const code = sql.raw(`x.${k.sql.codeColumn}`);
    parts.push(sql`w.id in (
      select x.id from ${table} x
        where x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId} and (${code} ilike ${like} or x.name ilike ${like})
      union all
      select x.id from ${table} x join person rp on rp.id = x.report_person_id
        where x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId} and rp.name ilike ${like})`);
  }
  return sql.join(parts, sql` and `);
}

/** The filters a prepared list shape can hold: status, type and house type (no keyword, no time range). */
type ShapeValues = { companyId: number; housingEstateId: number; status?: number; type?: number; houseType?: number };

/** A page of the list and its total, read in one statement: `list` the rows' JSON array as text, `total` an int. */
type PageRow = { list: string; total: number };

/**
 * The prepared list page of each kind and set of filters given (status / type / house type), first
 * page or not (at most 16 shapes a kind), the query of the list screen as it opens and pages (issue
 * 34). The total comes from the work_total counters (kept by triggers), so it never counts a million rows.
 */
const listShapes = new Map<string, PreparedQuery<PageRow, ShapeValues & { limit: number; offset: number }>>();

function listShape(k: WorkKind, f: WorkFilter, first: boolean) {
  const has = { status: !!f.status, type: !!(f.type && k.hasType), houseType: !!f.houseType };
  const key = `${k.kind}.${has.status ? 's' : ''}${has.type ? 't' : ''}${has.houseType ? 'h' : ''}${first ? '.first' : ''}`;
  let shape = listShapes.get(key);
  if (!shape) {
    type P = (key: keyof ShapeValues & string) => SQL;
    const conditions = (p: P, prefix: string, statusColumn: string) => {
      const parts: SQL[] = [
        sql`${sql.raw(prefix)}company_id = ${p('companyId')}`,
        sql`${sql.raw(prefix)}housing_estate_id = ${p('housingEstateId')}`,
      ];
      if (has.status) parts.push(sql`${sql.raw(prefix + statusColumn)} = ${p('status')}`);
      if (has.type) parts.push(sql`${sql.raw(prefix)}type = ${p('type')}`);
      if (has.houseType) parts.push(sql`${sql.raw(prefix)}person_type = ${p('houseType')}`);
      return sql.join(parts, sql` and `);
    };
    shape = preparedQuery(
      `work.list.${key}`,
      (p) =>
        sql`select (select coalesce(sum(n), 0)::int from work_total where kind = ${k.kind} and ${conditions(p, '', 'status')}) as total,
          ${
            first
              ? firstPageJson(
                  sql`select w.list_json, w.report_time, w.id from ${sql.raw(k.sql.table)} w where ${conditions(p, 'w.', k.sql.statusColumn)}
                    order by ${sql.raw(NEWEST_FIRST)} limit ${p('limit')}`,
                )
              : pageJson(
                  k,
                  sql`select w.id from ${sql.raw(k.sql.table)} w where ${conditions(p, 'w.', k.sql.statusColumn)}
                    order by ${sql.raw(NEWEST_FIRST)} limit ${p('limit')} offset ${p('offset')}`,
                )
          }::text as list`,
    );
    listShapes.set(key, shape);
  }
  return shape;
}

/**
 * A page of the list and its total, in ONE statement (one round trip; issue 34). Deferred join
 * after the first page: the page's ids come from the index alone (a deep page skips index entries,
 * not rows), then only those rows are read; the first page skips nothing and reads its rows from
 * the index at once.
 */
export async function listWork(
  db: DbOrTx,
  k: WorkKind,
  tenant: TenantScope,
  f: WorkFilter,
  limit: number,
  offset: number,
): Promise<{ rows: JsonText; total: number }> {
  if (!f.keyword && !f.startTime && !f.endTime) {
    // The list as it opens and pages: a prepared statement.
    const [{ list, total }] = await listShape(
      k,
      f,
      offset === 0,
    )(db, {
      companyId: tenant.companyId,
      housingEstateId: tenant.housingEstateId,
      status: f.status,
      type: f.type,
      houseType: f.houseType,
      limit,
      offset,
    });
    return { rows: new JsonText(list), total };
  }
  // A keyword or a time range: the matching rows counted.
  const where = whereOf(k, tenant, f);
  const table = sql.raw(k.sql.table);
  const [{ list, total }] = await queryRows<PageRow>(
    db,
    sql`select (select count(*)::int from ${table} w where ${where}) as total,
      ${pageJson(k, sql`select w.id from ${table} w where ${where} order by ${sql.raw(NEWEST_FIRST)} limit ${limit} offset ${offset}`)}::text as list`,
  );
  return { rows: new JsonText(list), total };
}

/** Unfinished ones (untreated and processing), newest first, for the dashboard. */
export async function dashboardWork(db: DbOrTx, k: WorkKind, tenant: TenantScope, limit: number): Promise<JsonText> {
  const [{ list }] = await queryRows<{ list: string }>(
    db,
    sql`select ${pageJson(
      k,
      sql`select w.id from ${sql.raw(k.sql.table)} w where w.company_id = ${tenant.companyId} and w.housing_estate_id = ${tenant.housingEstateId}
          and ${sql.raw(`w.${k.sql.statusColumn}`)} in (1, 2)
        order by ${sql.raw(NEWEST_FIRST)} limit ${limit}`,
    )}::text as list`,
  );
  return new JsonText(list);
}

/** Untreated / processing / completed counts of one kind. */
export interface StatusTotals {
  untreated: number;
  processing: number;
  completed: number;
}

const totalsQueries = new Map<
  string,
  PreparedQuery<{ status: number; n: number }, { companyId: number; housingEstateId: number }>
>();

/** The status totals of a kind in the caller's estate, from the work_total counters (placeholders companyId, housingEstateId). */
export function statusTotalsSql(k: WorkKind, p: (name: 'companyId' | 'housingEstateId') => SQL): SQL {
  return sql`select status, sum(n)::int as n from work_total
          where kind = ${k.kind} and company_id = ${p('companyId')} and housing_estate_id = ${p('housingEstateId')}
          group by status`;
}

/** The totals from the rows of `statusTotalsSql`. */
export function readStatusTotals(rows: { status: unknown; n: unknown }[]): StatusTotals {
  const by = new Map(rows.map((r) => [Number(r.status), Number(r.n)]));
  return { untreated: by.get(1) ?? 0, processing: by.get(2) ?? 0, completed: by.get(3) ?? 0 };
}

/** Untreated / processing / completed counts of the estate, from the work_total counters. */
export async function statusTotals(db: DbOrTx, k: WorkKind, tenant: TenantScope): Promise<StatusTotals> {
  let query = totalsQueries.get(k.kind);
  if (!query) {
    query = preparedQuery(`work.status-totals.${k.kind}`, (p) => statusTotalsSql(k, p));
    totalsQueries.set(k.kind, query);
  }
  return readStatusTotals(await query(db, { companyId: tenant.companyId, housingEstateId: tenant.housingEstateId }));
}

/**
 * The dashboard's charts of one kind over the last `days` days of the estate's time zone, from
 * the per-day counters (work_day_total, kept by triggers): reports per day by their status now
 * (every day present, zeros included), work orders by type, average minutes to deal and to
 * complete. At most days × statuses × types rows are read, however many reports there are.
 */
export async function workStats(db: DbOrTx, k: WorkKind, tenant: TenantScope, days: number): Promise<WorkStats> {
  const rows = await queryRows<{
    day: string;
    status: number;
    type: number;
    n: number;
    deal_minutes: number;
    deal_n: number;
    complete_minutes: number;
    complete_n: number;
  }>(
    db,
    sql`with b as (select (now() at time zone he.time_zone)::date as today from housing_estate he where he.id = ${tenant.housingEstateId})
        select to_char(d.day, 'YYYY-MM-DD') as day, d.status, d.type, d.n, d.deal_minutes, d.deal_n,
               d.complete_minutes, d.complete_n
        from work_day_total d, b
        where d.kind = ${k.kind} and d.company_id = ${tenant.companyId} and d.housing_estate_id = ${tenant.housingEstateId}
          and d.day between b.today - ${days - 1}::int and b.today
        union all
        -- the estate's today (status 0, no counts): the calendar ends on it
        select to_char(b.today, 'YYYY-MM-DD'), 0, 0, 0, 0, 0, 0, 0 from b`,
  );
  const today = rows.find((r) => r.status === 0)?.day;
  const byDay = new Map<string, { day: string; untreated: number; processing: number; completed: number }>();
  if (today) {
    const end = Date.parse(`${today}T00:00:00Z`);
    for (let i = days - 1; i >= 0; i--) {
      const day = new Date(end - i * 86_400_000).toISOString().slice(0, 10);
      byDay.set(day, { day, untreated: 0, processing: 0, completed: 0 });
    }
  }
  const byType = new Map<number, number>();
  let dealMinutes = 0;
  let dealN = 0;
  let completeMinutes = 0;
  let completeN = 0;
  const keys = { 1: 'untreated', 2: 'processing', 3: 'completed' } as const;
  for (const r of rows) {
    if (r.status === 0) continue;
    const day = byDay.get(r.day);
    const key = keys[r.status as 1 | 2 | 3];
    if (day && key) day[key] += r.n;
    if (k.hasType && r.type > 0) byType.set(r.type, (byType.get(r.type) ?? 0) + r.n);
    dealMinutes += Number(r.deal_minutes);
    dealN += r.deal_n;
    completeMinutes += Number(r.complete_minutes);
    completeN += r.complete_n;
  }
  return {
    days: [...byDay.values()],
    byType: [...byType.entries()]
      .filter(([, count]) => count > 0)
      .sort(([a], [b]) => a - b)
      .map(([type, count]) => ({ type, count })),
    avgDealMinutes: dealN ? Math.round(dealMinutes / dealN) : null,
    avgCompleteMinutes: completeN ? Math.round(completeMinutes / completeN) : null,
  };
}

/** The detail's own fields (SPEC §3) as JSON, over `rowFrom`'s aliases and dp / cp (who dealt, who completed). */
function detailFields(k: WorkKind): [string, string][] {
  return [
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

const detailQueries = new Map<
  string,
  PreparedQuery<{ work: string }, { companyId: number; housingEstateId: number; id: number }>
>();

/**
 * Every field of SPEC §3 for one of the caller's estate, as PostgreSQL's JSON text answered as it
 * is (JsonText, issue 34: never parsed by the driver and written out again); null when it is not
 * there (or not theirs).
 */
export async function findWork(db: DbOrTx, k: WorkKind, tenant: TenantScope, id: number): Promise<JsonText | null> {
  let query = detailQueries.get(k.kind);
  if (!query) {
    query = preparedQuery(
      `work.detail.${k.kind}`,
      (p) =>
        sql`select ${sql.raw(jsonObject([...rowFields(k), ...detailFields(k)]))}::text as work ${sql.raw(rowFrom(k))}
            left join person dp on dp.id = w.person_deal_id
            left join person cp on cp.id = w.person_complete_id
          where w.id = ${p('id')} and w.company_id = ${p('companyId')} and w.housing_estate_id = ${p('housingEstateId')}`,
    );
    detailQueries.set(k.kind, query);
  }
  const [r] = await query(db, { id, companyId: tenant.companyId, housingEstateId: tenant.housingEstateId });
  return r ? new JsonText(r.work) : null;
}

/** The status, reporter and house of one row (for notifications). */
export interface WorkHead {
  status: number;
  report_person_id: number;
  name: string;
  unit_id: number | null;
  car_space_id: number | null;
  shop_id: number | null;
}

/** The reporter and house of one row (for notifications); null when not in the estate. */
export async function workHead(db: DbOrTx, k: WorkKind, tenant: TenantScope, id: number): Promise<WorkHead | null> {
  const [r] = await queryRows<WorkHead>(
    db,
    sql`select ${sql.raw(k.sql.statusColumn)} as status, report_person_id, name, unit_id, car_space_id, shop_id from ${sql.raw(k.sql.table)}
        where id = ${id} and company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`,
  );
  return r ?? null;
}

/**
 * The state machine's one step: moves the row from `from` to `to` only if it is still in
 * `from`. Two staff dealing at once: the database lets exactly one UPDATE match.
 */
export async function moveStatus(
  db: DbOrTx,
  k: WorkKind,
  tenant: TenantScope,
  id: number,
  from: 1 | 2,
  step: { personId: number; note: string; img: string | null },
): Promise<boolean> {
  const set =
    from === 1
      ? sql`${sql.raw(k.sql.statusColumn)} = 2, person_deal_id = ${step.personId}, deal_time = now(), deal_note = ${step.note}, deal_img = ${step.img}`
      : sql`${sql.raw(k.sql.statusColumn)} = 3, person_complete_id = ${step.personId}, complete_time = now(), complete_note = ${step.note}, complete_img = ${step.img}`;
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update ${sql.raw(k.sql.table)} set ${set}, updated_at = now()
        where id = ${id} and company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
          and ${sql.raw(k.sql.statusColumn)} = ${from}
        returning id`,
  );
  return rows.length === 1;
}

interface RawReply {
  id: number;
  person_id: number;
  person_name: string;
  person_images: unknown;
  reply_time: unknown;
  content: string;
  img: string | null;
  voice: string | null;
  company_type: number | null;
}

/** A reply as answered (shared ReplySchema). */
export interface WorkReply {
  replyId: number;
  personId: number;
  personName: string;
  personPhoto: string | null;
  replyTime: string;
  content: string;
  img: string | null;
  voice: string | null;
  companyType: number | null;
}

const toReply = (r: RawReply): WorkReply => ({
  replyId: r.id,
  personId: r.person_id,
  personName: r.person_name,
  personPhoto: avatar(r.person_images),
  replyTime: iso(r.reply_time) as string,
  content: r.content,
  img: r.img,
  voice: r.voice,
  companyType: r.company_type,
});

/** Replies oldest first, paged. */
export async function listReplies(
  db: DbOrTx,
  k: WorkKind,
  workId: number,
  limit: number,
  offset: number,
): Promise<{ list: WorkReply[]; total: number }> {
  const fk = sql.raw(k.sql.replyForeignKey);
  const [{ n }] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${sql.raw(k.sql.replyTable)} where ${fk} = ${workId}`,
  );
  const rows = await queryRows<RawReply>(
    db,
    sql`select r.id, r.person_id, p.name as person_name, p.images as person_images, r.reply_time, r.content, r.img, r.voice, r.company_type
        from ${sql.raw(k.sql.replyTable)} r join person p on p.id = r.person_id
        where r.${fk} = ${workId} order by r.reply_time, r.id limit ${limit} offset ${offset}`,
  );
  return { list: rows.map(toReply), total: n };
}

export async function insertReply(
  db: DbOrTx,
  k: WorkKind,
  tenant: TenantScope,
  workId: number,
  reply: { personId: number; content: string; img: string | null; voice: string | null; companyType: number | null },
): Promise<WorkReply> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into ${sql.raw(k.sql.replyTable)} (company_id, housing_estate_id, ${sql.raw(k.sql.replyForeignKey)}, person_id, content, img, voice, company_type)
        values (${tenant.companyId}, ${tenant.housingEstateId}, ${workId}, ${reply.personId}, ${reply.content}, ${reply.img}, ${reply.voice}, ${reply.companyType})
        returning id`,
  );
  const [r] = await queryRows<RawReply>(
    db,
    sql`select r.id, r.person_id, p.name as person_name, p.images as person_images, r.reply_time, r.content, r.img, r.voice, r.company_type
        from ${sql.raw(k.sql.replyTable)} r join person p on p.id = r.person_id where r.id = ${row.id}`,
  );
  return toReply(r);
}

/**
 * The next code of the day: prefix + yyyyMMdd (the estate's day) + a 4-digit (or longer) daily sequence,
 * e.g. C202611220001. A transaction-scoped advisory lock per prefix and day serializes
 * concurrent reports, so two never get the same code.
 */
export async function nextCode(tx: DbOrTx, k: WorkKind, housingEstateId: number, now = new Date()): Promise<string> {
  // The day of the estate's time zone (housing_estate.time_zone), like the lists' day filters.
  const [{ day }] = await queryRows<{ day: string }>(
    tx,
    sql`select to_char(${now.toISOString()}::timestamptz at time zone e.time_zone, 'YYYYMMDD') as day
        from housing_estate e where e.id = ${housingEstateId}`,
  );
  const start = `${k.codePrefix}${day}`;
  await queryRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`work-code:${start}`}))`);
  const code = sql.raw(k.sql.codeColumn);
  const rows = await queryRows<{ code: string }>(
    tx,
    sql`select ${code} as code from ${sql.raw(k.sql.table)} where ${code} like ${`${start}%`}
        order by length(${code}) desc, ${code} desc limit 1`,
  );
  const last = rows[0] ? Number(rows[0].code.slice(start.length)) || 0 : 0;
  return `${start}${String(last + 1).padStart(4, '0')}`;
}

/** What a resident reports from one of their houses. */
export interface NewWork {
  companyId: number;
  housingEstateId: number;
  name: string;
  note: string;
  img: string | null;
  voice: string | null;
  reportPersonId: number;
  personType: number;
  personIdentity: number;
  unitId: number | null;
  carSpaceId: number | null;
  shopId: number | null;
  code: string;
  /** Work orders only. */
  type?: number;
}

/** Stores a new one (status 1, untreated); answers its id. */
export async function insertWork(tx: DbOrTx, k: WorkKind, w: NewWork): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    tx,
    sql`insert into ${sql.raw(k.sql.table)} (company_id, housing_estate_id, name, note, img, voice, report_person_id,
          person_type, person_identity, unit_id, car_space_id, shop_id, ${sql.raw(k.sql.codeColumn)}, ${sql.raw(k.sql.statusColumn)}${k.hasType ? sql.raw(', type') : sql``})
        values (${w.companyId}, ${w.housingEstateId}, ${w.name}, ${w.note}, ${w.img}, ${w.voice}, ${w.reportPersonId},
          ${w.personType}, ${w.personIdentity}, ${w.unitId}, ${w.carSpaceId}, ${w.shopId}, ${w.code}, 1${k.hasType ? sql`, ${w.type}` : sql``})
        returning id`,
  );
  return row.id;
}

/** One the resident reported, as their own calls see it. */
export interface OwnWork {
  id: number;
  companyId: number;
  housingEstateId: number;
  name: string;
  status: number;
  rated: boolean;
  unitId: number | null;
  carSpaceId: number | null;
  shopId: number | null;
}

/** A complaint or work order the resident reported (null when it is not theirs). */
export async function ownWork(db: DbOrTx, k: WorkKind, id: number, personId: number): Promise<OwnWork | null> {
  const [r] = await queryRows<{
    id: number;
    company_id: number;
    housing_estate_id: number;
    name: string;
    status: number;
    service_efficiency: number | null;
    unit_id: number | null;
    car_space_id: number | null;
    shop_id: number | null;
  }>(
    db,
    sql`select id, company_id, housing_estate_id, name, ${sql.raw(k.sql.statusColumn)} as status, service_efficiency, unit_id, car_space_id, shop_id
        from ${sql.raw(k.sql.table)} where id = ${id} and report_person_id = ${personId}`,
  );
  if (!r) return null;
  return {
    id: r.id,
    companyId: r.company_id,
    housingEstateId: r.housing_estate_id,
    name: r.name,
    status: r.status,
    rated: r.service_efficiency !== null,
    unitId: r.unit_id,
    carSpaceId: r.car_space_id,
    shopId: r.shop_id,
  };
}

/** A resident's reply (company_type null = resident); answers its id. */
export async function insertResidentReply(
  tx: DbOrTx,
  k: WorkKind,
  work: OwnWork,
  reply: { personId: number; content: string; img: string | null; voice: string | null },
): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    tx,
    sql`insert into ${sql.raw(k.sql.replyTable)} (company_id, housing_estate_id, ${sql.raw(k.sql.replyForeignKey)}, person_id, content, img, voice, company_type)
        values (${work.companyId}, ${work.housingEstateId}, ${work.id}, ${reply.personId}, ${reply.content}, ${reply.img}, ${reply.voice}, null)
        returning id`,
  );
  return row.id;
}

/** The resident's ratings; false when it was rated meanwhile (the "not yet rated" condition loses the race cleanly). */
export async function rateWork(
  db: DbOrTx,
  k: WorkKind,
  id: number,
  rating: {
    serviceEfficiency: number;
    serviceAttitude: number;
    serviceProcess: number;
    serviceComment: string | null;
    serviceScore: number;
  },
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update ${sql.raw(k.sql.table)} set service_efficiency = ${rating.serviceEfficiency}, service_attitude = ${rating.serviceAttitude},
          service_process = ${rating.serviceProcess}, service_comment = ${rating.serviceComment}, service_score = ${rating.serviceScore},
          updated_at = now()
        where id = ${id} and service_efficiency is null
        returning id`,
  );
  return rows.length === 1;
}

/** Who deals with and who completed one (person ids, either may be null), and its estate; null when missing. */
export async function workHandlers(
  db: DbOrTx,
  k: WorkKind,
  id: number,
): Promise<{ housingEstateId: number; deal: number | null; complete: number | null } | null> {
  const [r] = await queryRows<{ housing_estate_id: number; deal: number | null; complete: number | null }>(
    db,
    sql`select housing_estate_id, person_deal_id as deal, person_complete_id as complete from ${sql.raw(k.sql.table)} where id = ${id}`,
  );
  return r ? { housingEstateId: r.housing_estate_id, deal: r.deal, complete: r.complete } : null;
}
