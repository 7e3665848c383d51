import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/open-database';
import type {
  DeclarationRow,
  ResidentWarn,
  SosCall,
  WarnDetail,
  WarnPeopleList,
  WarnPerson,
  WarnRow,
} from '@pm/shared';
import { disasterDeclaration, disasterWarn, disasterWarnPerson, sosHelp } from '../../db/schema';
import { isoOrNull, offsetOf, queryRows } from '../../db/sql';
import type { TenantScope } from '../../http/caller';

/** A new open SOS help call from a house; answers its id. */
export async function insertSosHelp(
  tx: DbOrTx,
  call: {
    companyId: number;
    housingEstateId: number;
    personId: number;
    houseType: number;
    unitId: number | null;
    carSpaceId: number | null;
    shopId: number | null;
    position: string | null;
  },
): Promise<number> {
  const [row] = await tx.insert(sosHelp).values(call).returning({ id: sosHelp.id });
  return row.id;
}

/** Whether a warning was revoked; null when there is no such warning. */
export async function warningRevoked(db: DbOrTx, disasterWarnId: number): Promise<boolean | null> {
  const [warn] = await db
    .select({ revoked: disasterWarn.revoked })
    .from(disasterWarn)
    .where(eq(disasterWarn.id, disasterWarnId));
  return warn ? warn.revoked : null;
}

/** Stores a recipient's answer (and reads the warning if not yet); false when the person did not receive it. */
export async function saveWarningReply(
  db: DbOrTx,
  disasterWarnId: number,
  personId: number,
  answer: { reply: number; note: string | null; at: Date },
): Promise<boolean> {
  const updated = await db
    .update(disasterWarnPerson)
    .set({
      reply: answer.reply,
      note: answer.note,
      replyTime: answer.at,
      readTime: sql`coalesce(${disasterWarnPerson.readTime}, ${answer.at.toISOString()}::timestamptz)`,
    })
    .where(and(eq(disasterWarnPerson.disasterWarnId, disasterWarnId), eq(disasterWarnPerson.personId, personId)))
    .returning({ id: disasterWarnPerson.id });
  return updated.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Staff side (issue 21): SOS calls, warnings and their recipients, declarations.

const iso = (v: unknown): string => isoOrNull(v) ?? '';

/** The SPEC §3 house columns (unit with block and floor, car park code, shop code) of alias `x`. */
const houseSelect = (x: string) =>
  sql.raw(`${x}.house_type, b.name as build_name, f.name as floor_name, u.name as unit_name,
           cs.carpark_code, sh.shop_code`);
const houseJoins = (x: string) =>
  sql.raw(`left join unit u on u.id = ${x}.unit_id
           left join block b on b.id = u.block_id
           left join floor f on f.id = u.floor_id
           left join car_space cs on cs.id = ${x}.car_space_id
           left join shop sh on sh.id = ${x}.shop_id`);

interface HouseRaw {
  house_type: number | null;
  build_name: string | null;
  floor_name: string | null;
  unit_name: string | null;
  carpark_code: string | null;
  shop_code: string | null;
}
const houseOf = (r: HouseRaw) => ({
  houseType: r.house_type,
  buildName: r.build_name,
  floorName: r.floor_name,
  unitName: r.unit_name,
  carParkCode: r.carpark_code,
  shopCode: r.shop_code,
});

// --- SOS ---------------------------------------------------------------------------------------

interface SosRaw extends HouseRaw {
  id: number;
  person_id: number;
  person_name: string | null;
  tel: string | null;
  position: string | null;
  created_at: unknown;
  status: number;
  acknowledged_by: string | null;
  acknowledged_at: unknown;
  handled_by: string | null;
  handled_at: unknown;
  handled_note: string | null;
}

function toSos(r: SosRaw): SosCall {
  const acknowledged = r.acknowledged_at !== null || r.status === 2;
  return {
    id: r.id,
    personId: r.person_id,
    personName: r.person_name,
    phone: r.tel,
    position: r.position,
    createdAt: iso(r.created_at),
    state: r.status === 2 ? 'closed' : acknowledged ? 'acknowledged' : 'open',
    acknowledgedBy: r.acknowledged_by,
    acknowledgedAt: isoOrNull(r.acknowledged_at),
    handledBy: r.handled_by,
    handledAt: isoOrNull(r.handled_at),
    handledNote: r.handled_note,
    ...houseOf(r),
  };
}

function selectSos(where: ReturnType<typeof sql>, order = sql`x.id`) {
  return sql`select x.id, x.person_id, p.name as person_name, p.tel, x.position, x.created_at, x.status,
                    ap.name as acknowledged_by, x.acknowledged_at, hp.name as handled_by, x.handled_at,
                    x.handled_note, ${houseSelect('x')}
             from sos_help x
             left join person p on p.id = x.person_id
             left join person ap on ap.id = x.acknowledged_by_person_id
             left join person hp on hp.id = x.handled_by_person_id
             ${houseJoins('x')}
             where ${where}
             order by ${order}`;
}

/** At most this many open calls in one answer of GET /disaster/sos/open. */
export const OPEN_SOS_LIMIT = 500;

/**
 * The estate's calls not closed: unacknowledged first (oldest first), then acknowledged. Beyond
 * {@link OPEN_SOS_LIMIT} the oldest are left out, never the newest: a console reads this list to
 * catch up on calls it missed while away, and those are the newest (issue 35: the cut kept the
 * oldest 500, so past 500 open calls a call raised while a console was away never reached it).
 * Unacknowledged calls still go before acknowledged ones.
 */
export async function listOpenSos(db: DbOrTx, tenant: TenantScope): Promise<SosCall[]> {
  const rows = await queryRows<SosRaw>(
    db,
    sql`select * from (${selectSos(
      sql`x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId} and x.status = 1`,
      sql`(x.acknowledged_at is not null), x.created_at desc, x.id desc`,
    )} limit ${OPEN_SOS_LIMIT}) s order by (s.acknowledged_at is not null), s.created_at, s.id`,
  );
  return rows.map(toSos);
}

export async function findSos(db: DbOrTx, tenant: TenantScope, id: number): Promise<SosCall | null> {
  const [row] = await queryRows<SosRaw>(
    db,
    selectSos(
      sql`x.id = ${id} and x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId}`,
    ),
  );
  return row ? toSos(row) : null;
}

/** Sets the acknowledgement of an open, unacknowledged call; false when it was not. */
export async function acknowledgeSos(tx: DbOrTx, tenant: TenantScope, id: number, personId: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update sos_help set acknowledged_by_person_id = ${personId}, acknowledged_at = now()
        where id = ${id} and company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
          and status = 1 and acknowledged_at is null
        returning id`,
  );
  return rows.length > 0;
}

/** Closes an acknowledged, open call with a note; false when it was not. */
export async function closeSos(
  tx: DbOrTx,
  tenant: TenantScope,
  id: number,
  personId: number,
  note: string,
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update sos_help set status = 2, handled_by_person_id = ${personId}, handled_at = now(), handled_note = ${note}
        where id = ${id} and company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
          and status = 1 and acknowledged_at is not null
        returning id`,
  );
  return rows.length > 0;
}

/** Marks every recipient's unread alarm message of the call read; answers who had one unread. */
export async function readSosMessages(tx: DbOrTx, housingEstateId: number, sosId: number): Promise<number[]> {
  const rows = await queryRows<{ person_id: number }>(
    tx,
    sql`update message set read_status = true
        where housing_estate_id = ${housingEstateId} and message_type = 7 and data_id = ${sosId} and not read_status
        returning person_id`,
  );
  return rows.map((r) => r.person_id);
}

/**
 * Open calls nobody acknowledged, last announced longer ago than their estate's interval (its
 * basic set-up setting, or `defaultMs` where it set none): stamped announced now (one statement).
 */
export async function takeSosToAnnounceAgain(
  tx: DbOrTx,
  defaultMs: number,
): Promise<
  { id: number; housingEstateId: number; personId: number; position: string | null; houseType: number | null }[]
> {
  const rows = await queryRows<{
    id: number;
    housing_estate_id: number;
    person_id: number;
    position: string | null;
    house_type: number | null;
  }>(
    tx,
    sql`update sos_help set last_announced_at = now()
        where id in (select s.id from sos_help s join housing_estate he on he.id = s.housing_estate_id
                     where s.status = 1 and s.acknowledged_at is null
                       and coalesce(s.last_announced_at, s.created_at)
                           < now() - coalesce(he.sos_reannounce_seconds * 1000, ${defaultMs}) * interval '1 millisecond'
                     order by s.id limit 200 for update of s skip locked)
        returning id, housing_estate_id, person_id, position, house_type`,
  );
  return rows.map((r) => ({
    id: r.id,
    housingEstateId: r.housing_estate_id,
    personId: r.person_id,
    position: r.position,
    houseType: r.house_type,
  }));
}

// --- Warnings ------------------------------------------------------------------------------------

interface WarnRaw {
  id: number;
  type: number;
  content: string;
  block_ids: number[];
  publisher_name: string | null;
  publish_time: unknown;
  revoked: boolean;
  revoked_at: unknown;
  recipients: number;
  read: number;
  replied: number;
  ask_help: number;
  help_open: number;
}

const toWarn = (r: WarnRaw): WarnRow => ({
  id: r.id,
  type: r.type,
  content: r.content,
  blockIds: r.block_ids ?? [],
  publisherName: r.publisher_name,
  publishTime: iso(r.publish_time),
  revoked: r.revoked,
  revokedAt: isoOrNull(r.revoked_at),
  recipients: r.recipients,
  read: r.read,
  replied: r.replied,
  askHelp: r.ask_help,
  helpOpen: r.help_open,
});

const warnSelect = sql`select w.id, w.type, w.content, w.block_ids, p.name as publisher_name, w.publish_time,
         w.revoked, w.revoked_at,
         (select count(*)::int from disaster_warn_person x where x.disaster_warn_id = w.id) as recipients,
         (select count(*)::int from disaster_warn_person x where x.disaster_warn_id = w.id and x.read_time is not null) as read,
         (select count(*)::int from disaster_warn_person x where x.disaster_warn_id = w.id and x.reply is not null) as replied,
         (select count(*)::int from disaster_warn_person x where x.disaster_warn_id = w.id and x.reply = 5) as ask_help,
         (select count(*)::int from disaster_warn_person x where x.disaster_warn_id = w.id and x.reply = 5
            and x.handled_at is null) as help_open
       from disaster_warn w left join person p on p.id = w.publisher_person_id`;

export async function listWarnings(
  db: DbOrTx,
  tenant: TenantScope,
  filter: { type?: number; page: number; limit: number },
): Promise<{ rows: WarnRow[]; total: number }> {
  const where = sql`w.company_id = ${tenant.companyId} and w.housing_estate_id = ${tenant.housingEstateId}${
    filter.type ? sql` and w.type = ${filter.type}` : sql``
  }`;
  const [count] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from disaster_warn w where ${where}`,
  );
  const rows = await queryRows<WarnRaw>(
    db,
    sql`${warnSelect} where ${where} order by w.publish_time desc, w.id desc
        limit ${filter.limit} offset ${offsetOf(filter.page, filter.limit)}`,
  );
  return { rows: rows.map(toWarn), total: count?.n ?? 0 };
}

export async function findWarning(db: DbOrTx, tenant: TenantScope, id: number): Promise<WarnDetail | null> {
  const [row] = await queryRows<WarnRaw>(
    db,
    sql`${warnSelect} where w.id = ${id} and w.company_id = ${tenant.companyId}
          and w.housing_estate_id = ${tenant.housingEstateId}`,
  );
  if (!row) return null;
  const counts = await queryRows<{ reply: number; n: number }>(
    db,
    sql`select reply, count(*)::int as n from disaster_warn_person
        where disaster_warn_id = ${id} and reply is not null group by reply`,
  );
  const replies: Record<string, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, '6': 0 };
  for (const c of counts) replies[String(c.reply)] = c.n;
  return { ...toWarn(row), replies };
}

/**
 * A new warning and its recipients in two statements: every resident of the estate with an
 * approved house (one row each, from their first house; with blocks, only residents of units in
 * them) and the estate's management-committee and management-office staff (no house). Answers
 * the warning's id and the recipients' person ids.
 */
export async function insertWarning(
  tx: DbOrTx,
  tenant: TenantScope,
  warn: { type: number; content: string; blockIds: number[]; publisherPersonId: number },
  staff: number[],
): Promise<{ id: number; personIds: number[] }> {
  const [w] = await tx
    .insert(disasterWarn)
    .values({ ...tenant, ...warn })
    .returning({ id: disasterWarn.id });
  const blocks = warn.blockIds.length > 0;
  const rows = await queryRows<{ person_id: number }>(
    tx,
    sql`insert into disaster_warn_person
          (company_id, housing_estate_id, disaster_warn_id, person_id, house_type, unit_id, car_space_id, shop_id)
        select distinct on (ph.person_id) ${tenant.companyId}::int, ${tenant.housingEstateId}::int, ${w.id}::int,
               ph.person_id, ph.house_type, ph.unit_id, ph.car_space_id, ph.shop_id
        from person_house ph
        ${blocks ? sql`join unit u on u.id = ph.unit_id` : sql``}
        where ph.company_id = ${tenant.companyId} and ph.housing_estate_id = ${tenant.housingEstateId} and ph.status = 2
          ${blocks ? sql`and u.block_id = any(${`{${warn.blockIds.join(',')}}`}::int[])` : sql``}
        order by ph.person_id, ph.id
        returning person_id`,
  );
  const residents = new Set(rows.map((r) => r.person_id));
  const staffOnly = staff.filter((p) => !residents.has(p));
  if (staffOnly.length > 0)
    await tx
      .insert(disasterWarnPerson)
      .values(staffOnly.map((personId) => ({ ...tenant, disasterWarnId: w.id, personId })));
  return { id: w.id, personIds: [...residents, ...staffOnly] };
}

export async function revokeWarning(tx: DbOrTx, tenant: TenantScope, id: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update disaster_warn set revoked = true, revoked_at = now()
        where id = ${id} and company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
          and not revoked
        returning id`,
  );
  return rows.length > 0;
}

/** The recipients' person ids of a warning. */
export async function warningRecipients(db: DbOrTx, id: number): Promise<number[]> {
  const rows = await queryRows<{ person_id: number }>(
    db,
    sql`select person_id from disaster_warn_person where disaster_warn_id = ${id}`,
  );
  return rows.map((r) => r.person_id);
}

/** The estate a warning belongs to (for the pushes of a resident's reply). */
export async function warningTenant(db: DbOrTx, id: number): Promise<TenantScope | null> {
  const [w] = await db
    .select({ companyId: disasterWarn.companyId, housingEstateId: disasterWarn.housingEstateId })
    .from(disasterWarn)
    .where(eq(disasterWarn.id, id));
  return w ?? null;
}

interface WarnPersonRaw extends HouseRaw {
  id: number;
  person_id: number;
  name: string | null;
  tel: string | null;
  reply: number | null;
  note: string | null;
  read_time: unknown;
  reply_time: unknown;
  handled_by: string | null;
  handled_at: unknown;
  handled_note: string | null;
}

const toWarnPerson = (r: WarnPersonRaw): WarnPerson => ({
  id: r.id,
  personId: r.person_id,
  name: r.name,
  phone: r.tel,
  reply: r.reply,
  note: r.note,
  readTime: isoOrNull(r.read_time),
  replyTime: isoOrNull(r.reply_time),
  handledBy: r.handled_by,
  handledAt: isoOrNull(r.handled_at),
  handledNote: r.handled_note,
  ...houseOf(r),
});

const PEOPLE_FILTER: Record<WarnPeopleList, string> = {
  read: 'x.read_time is not null',
  unread: 'x.read_time is null',
  help: 'x.reply = 5',
  safe: 'x.reply = 1',
};
// Help requests: those not handled first, then by the time they asked.
const PEOPLE_ORDER: Record<WarnPeopleList, string> = {
  read: 'x.read_time desc, x.id',
  unread: 'x.id',
  help: '(x.handled_at is not null), x.reply_time, x.id',
  safe: 'x.reply_time desc, x.id',
};

const warnPersonSelect = sql`select x.id, x.person_id, p.name, p.tel, x.reply, x.note, x.read_time, x.reply_time,
         hp.name as handled_by, x.handled_at, x.handled_note, ${houseSelect('x')}
       from disaster_warn_person x
       left join person p on p.id = x.person_id
       left join person hp on hp.id = x.handled_by_person_id
       ${houseJoins('x')}`;

export async function listWarnPeople(
  db: DbOrTx,
  warnId: number,
  filter: { list: WarnPeopleList; page: number; limit: number },
): Promise<{ rows: WarnPerson[]; total: number }> {
  const where = sql`x.disaster_warn_id = ${warnId} and ${sql.raw(PEOPLE_FILTER[filter.list])}`;
  const [count] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from disaster_warn_person x where ${where}`,
  );
  const rows = await queryRows<WarnPersonRaw>(
    db,
    sql`${warnPersonSelect} where ${where} order by ${sql.raw(PEOPLE_ORDER[filter.list])}
        limit ${filter.limit} offset ${offsetOf(filter.page, filter.limit)}`,
  );
  return { rows: rows.map(toWarnPerson), total: count?.n ?? 0 };
}

export async function findWarnPerson(
  db: DbOrTx,
  tenant: TenantScope,
  id: number,
): Promise<(WarnPerson & { disasterWarnId: number }) | null> {
  const [row] = await queryRows<WarnPersonRaw & { disaster_warn_id: number }>(
    db,
    sql`select * from (${warnPersonSelect}) y join disaster_warn_person z on z.id = y.id
        where y.id = ${id} and z.company_id = ${tenant.companyId} and z.housing_estate_id = ${tenant.housingEstateId}`,
  );
  return row ? { ...toWarnPerson(row), disasterWarnId: row.disaster_warn_id } : null;
}

/** Marks a help request handled; false when it is not one or already handled. */
export async function handleWarnPerson(
  tx: DbOrTx,
  tenant: TenantScope,
  id: number,
  personId: number,
  note: string,
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update disaster_warn_person set handled_by_person_id = ${personId}, handled_at = now(), handled_note = ${note}
        where id = ${id} and company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
          and reply = 5 and handled_at is null
        returning id`,
  );
  return rows.length > 0;
}

// --- Declarations --------------------------------------------------------------------------------

export async function insertDeclaration(tx: DbOrTx, row: typeof disasterDeclaration.$inferInsert): Promise<number> {
  const [r] = await tx.insert(disasterDeclaration).values(row).returning({ id: disasterDeclaration.id });
  return r.id;
}

interface DeclarationRaw extends HouseRaw {
  id: number;
  person_name: string | null;
  tel: string | null;
  kind: number;
  type: number;
  content: string;
  position: string | null;
  img: string | null;
  status: number;
  created_at: unknown;
  handled_by: string | null;
  handled_at: unknown;
  handled_note: string | null;
}

const toDeclaration = (r: DeclarationRaw): DeclarationRow => ({
  id: r.id,
  personName: r.person_name,
  phone: r.tel,
  kind: r.kind,
  type: r.type,
  content: r.content,
  position: r.position,
  img: r.img,
  status: r.status,
  createdAt: iso(r.created_at),
  handledBy: r.handled_by,
  handledAt: isoOrNull(r.handled_at),
  handledNote: r.handled_note,
  ...houseOf(r),
});

const declarationSelect = sql`select x.id, p.name as person_name, p.tel, x.kind, x.type, x.content, x.position,
         x.img, x.status, x.created_at, hp.name as handled_by, x.handled_at, x.handled_note, ${houseSelect('x')}
       from disaster_declaration x
       left join person p on p.id = x.person_id
       left join person hp on hp.id = x.handled_by_person_id
       ${houseJoins('x')}`;

export async function listDeclarations(
  db: DbOrTx,
  tenant: TenantScope,
  filter: { status?: number; page: number; limit: number },
): Promise<{ rows: DeclarationRow[]; total: number }> {
  const where = sql`x.company_id = ${tenant.companyId} and x.housing_estate_id = ${tenant.housingEstateId}${
    filter.status ? sql` and x.status = ${filter.status}` : sql``
  }`;
  const [count] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from disaster_declaration x where ${where}`,
  );
  const rows = await queryRows<DeclarationRaw>(
    db,
    sql`${declarationSelect} where ${where} order by x.status, x.created_at desc, x.id desc
        limit ${filter.limit} offset ${offsetOf(filter.page, filter.limit)}`,
  );
  return { rows: rows.map(toDeclaration), total: count?.n ?? 0 };
}

export async function findDeclaration(db: DbOrTx, tenant: TenantScope, id: number): Promise<DeclarationRow | null> {
  const [row] = await queryRows<DeclarationRaw>(
    db,
    sql`${declarationSelect} where x.id = ${id} and x.company_id = ${tenant.companyId}
          and x.housing_estate_id = ${tenant.housingEstateId}`,
  );
  return row ? toDeclaration(row) : null;
}

export async function handleDeclaration(
  tx: DbOrTx,
  tenant: TenantScope,
  id: number,
  personId: number,
  note: string,
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update disaster_declaration set status = 2, handled_by_person_id = ${personId}, handled_at = now(),
          handled_note = ${note}
        where id = ${id} and company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
          and status = 1
        returning id`,
  );
  return rows.length > 0;
}

/** Whether every block id is a block of the estate. */
export async function blocksOfEstate(db: DbOrTx, tenant: TenantScope, blockIds: number[]): Promise<boolean> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from block
        where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
          and id = any(${`{${blockIds.join(',')}}`}::int[])`,
  );
  return (row?.n ?? 0) === blockIds.length;
}

/** The estate's blocks, by name. */
export function listBlocks(db: DbOrTx, tenant: TenantScope): Promise<{ id: number; name: string }[]> {
  return queryRows<{ id: number; name: string }>(
    db,
    sql`select id, name from block where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
        order by name, id`,
  );
}

// --- The resident's side: warnings received, pictures of a declaration ------------------------------

/** A warning the person received: its estate and whether it was revoked; null when not received. */
export async function receivedWarning(
  db: DbOrTx,
  personId: number,
  id: number,
): Promise<{ housingEstateId: number; revoked: boolean } | null> {
  const [row] = await queryRows<{ housing_estate_id: number; revoked: boolean }>(
    db,
    sql`select w.housing_estate_id, w.revoked from disaster_warn_person x join disaster_warn w on w.id = x.disaster_warn_id
        where x.disaster_warn_id = ${id} and x.person_id = ${personId} limit 1`,
  );
  return row ? { housingEstateId: row.housing_estate_id, revoked: row.revoked } : null;
}

/** The warnings the person received, not revoked, newest first. */
export async function residentWarnings(db: DbOrTx, personId: number, limit: number): Promise<ResidentWarn[]> {
  const rows = await queryRows<{
    id: number;
    type: number;
    content: string;
    publish_time: unknown;
    read_time: unknown;
    reply: number | null;
    note: string | null;
    reply_time: unknown;
  }>(
    db,
    sql`select w.id, w.type, w.content, w.publish_time, x.read_time, x.reply, x.note, x.reply_time
        from disaster_warn_person x join disaster_warn w on w.id = x.disaster_warn_id
        where x.person_id = ${personId} and not w.revoked
        order by w.publish_time desc, w.id desc
        limit ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    content: r.content,
    publishTime: iso(r.publish_time),
    readTime: isoOrNull(r.read_time),
    reply: r.reply,
    note: r.note,
    replyTime: isoOrNull(r.reply_time),
  }));
}

/** Reads a received warning; answers when it was read and whether this call read it (false: already read). */
export async function markWarningRead(
  tx: DbOrTx,
  id: number,
  personId: number,
): Promise<{ readTime: string; changed: boolean }> {
  const changed = await queryRows<{ read_time: unknown }>(
    tx,
    sql`update disaster_warn_person set read_time = now()
        where disaster_warn_id = ${id} and person_id = ${personId} and read_time is null
        returning read_time`,
  );
  if (changed.length > 0) return { readTime: iso(changed[0].read_time), changed: true };
  const [row] = await queryRows<{ read_time: unknown }>(
    tx,
    sql`select read_time from disaster_warn_person where disaster_warn_id = ${id} and person_id = ${personId} limit 1`,
  );
  return { readTime: iso(row?.read_time), changed: false };
}

/** Whether every path is a picture the person uploaded (the upload service checked its bytes). */
export async function ownPictures(db: DbOrTx, personId: number, paths: string[]): Promise<boolean> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(distinct path)::int as n from upload_file
        where person_id = ${personId} and content_type = 'image' and path in (${sql.join(
          paths.map((p) => sql`${p}`),
          sql`, `,
        )})`,
  );
  return (row?.n ?? 0) === paths.length;
}
