import { sql, type SQL } from 'drizzle-orm';
import { ChatGroupType, ChatRecordType, JoinStatus, type ChatPersonName } from '@pm/shared';
import type { DbOrTx, Tx } from '../../db/open-database';
import { preparedQuery, queryArrays } from '../../db/prepared';
import { isoOrNull as iso, likePattern, queryRows } from '../../db/sql';
import { JsonMemo } from '../../http/json-memo';
import type { JsonBytes } from '../../http/json-text';
import type { TenantScope } from '../../http/request-context';

/**
 * The SQL of instant messaging (SPEC §7): groups, members, records. A member's unread count is
 * the group's counted records (message_count) minus what the member had read (read_count).
 */

type Images = { url: string }[];
const images = (v: unknown): Images => ((typeof v === 'string' ? JSON.parse(v) : v) ?? []) as Images;
const ids = (list: number[]): SQL =>
  sql.join(
    list.map((i) => sql`${i}`),
    sql`, `,
  );

export interface GroupRow {
  id: number;
  groupType: number;
  name: string | null;
  ownerPersonId: number;
  isWorkGroup: boolean;
  lastSeq: number;
  messageCount: number;
}

/** The group when the person is a current member of it in the estate (locked with `lock`); null otherwise. */
export async function memberGroup(
  db: DbOrTx,
  tenant: TenantScope,
  groupId: number,
  personId: number,
  lock = false,
): Promise<GroupRow | null> {
  const [g] = await queryRows<{
    id: number;
    group_type: number;
    name: string | null;
    owner_person_id: number;
    is_work_group: boolean;
    last_seq: number;
    message_count: number;
  }>(
    db,
    sql`select g.id, g.group_type, g.name, g.owner_person_id, g.is_work_group, g.last_seq, g.message_count
        from im_group g join im_group_member m on m.group_id = g.id and m.person_id = ${personId} and m.quit_at is null
        where g.id = ${groupId} and g.company_id = ${tenant.companyId} and g.housing_estate_id = ${tenant.housingEstateId}
          and not g.dismissed
        ${lock ? sql`for update of g` : sql``}`,
  );
  return g
    ? {
        id: g.id,
        groupType: g.group_type,
        name: g.name,
        ownerPersonId: g.owner_person_id,
        isWorkGroup: g.is_work_group,
        lastSeq: g.last_seq,
        messageCount: g.message_count,
      }
    : null;
}

/** The persons of the estate among `personIds` (each once), with their names. */
export async function estatePersons(db: DbOrTx, tenant: TenantScope, personIds: number[]): Promise<ChatPersonName[]> {
  const unique = [...new Set(personIds)];
  if (unique.length === 0) return [];
  const rows = await queryRows<{ id: number; name: string }>(
    db,
    sql`select id, name from person where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
        and id in (${ids(unique)})`,
  );
  return rows.map((r) => ({ personId: r.id, name: r.name }));
}

/** Whether the two persons share an approved house (a resident may chat with them). */
export async function shareApprovedHouse(db: DbOrTx, residentId: number, otherId: number): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from person_house mine join person_house theirs
          on theirs.house_type = mine.house_type
          and (theirs.unit_id = mine.unit_id or theirs.car_space_id = mine.car_space_id or theirs.shop_id = mine.shop_id)
        where mine.person_id = ${residentId} and mine.status = ${JoinStatus.approved}
          and theirs.person_id = ${otherId} and theirs.status = ${JoinStatus.approved}
        limit 1`,
  );
  return rows.length > 0;
}

/** The group's current members, oldest first. */
export async function currentMemberIds(db: DbOrTx, groupId: number): Promise<number[]> {
  const rows = await queryRows<{ person_id: number }>(
    db,
    sql`select person_id from im_group_member where group_id = ${groupId} and quit_at is null order by joined_at, person_id`,
  );
  return rows.map((r) => r.person_id);
}

/**
 * Adds members who have read everything so far (a person who quit earlier comes back; a
 * current member stays as they are). Answers those really added.
 */
export async function insertMembers(tx: Tx, group: GroupRow, personIds: number[]): Promise<number[]> {
  if (personIds.length === 0) return [];
  const rows = await queryRows<{ person_id: number }>(
    tx,
    sql`insert into im_group_member (group_id, person_id, read_seq, read_count)
        values ${sql.join(
          personIds.map((p) => sql`(${group.id}, ${p}, ${group.lastSeq}, ${group.messageCount})`),
          sql`, `,
        )}
        on conflict (group_id, person_id) do update
          set quit_at = null, read_seq = excluded.read_seq, read_count = excluded.read_count, joined_at = now()
          where im_group_member.quit_at is not null
        returning person_id`,
  );
  if (rows.length > 0)
    await tx.execute(sql`update im_group set member_count = member_count + ${rows.length} where id = ${group.id}`);
  return rows.map((r) => r.person_id);
}

/** Members leave (removed, quit); they no longer count unread there. */
export async function markMembersGone(tx: Tx, groupId: number, personIds: number[]): Promise<void> {
  if (personIds.length === 0) return;
  await tx.execute(
    sql`with gone as (
          update im_group_member set quit_at = now() where group_id = ${groupId} and quit_at is null and person_id in (${ids(personIds)})
          returning 1)
        update im_group set member_count = member_count - (select count(*) from gone) where id = ${groupId}`,
  );
}

export async function insertGroup(
  tx: Tx,
  tenant: TenantScope,
  g: {
    groupType: number;
    name: string;
    namePinyin: string | null;
    ownerPersonId: number;
    isWorkGroup: boolean;
    /** A private chat's other member. */
    peerPersonId?: number;
  },
): Promise<GroupRow> {
  const [row] = await queryRows<{ id: number }>(
    tx,
    sql`insert into im_group (company_id, housing_estate_id, group_type, name, name_pinyin, owner_person_id, peer_person_id, is_work_group, updated_at)
        values (${tenant.companyId}, ${tenant.housingEstateId}, ${g.groupType}, ${g.name}, ${g.namePinyin}, ${g.ownerPersonId}, ${g.peerPersonId ?? null}, ${g.isWorkGroup}, now())
        returning id`,
  );
  return {
    id: row.id,
    groupType: g.groupType,
    name: g.name,
    ownerPersonId: g.ownerPersonId,
    isWorkGroup: g.isWorkGroup,
    lastSeq: 0,
    messageCount: 0,
  };
}

export async function setGroupName(tx: Tx, groupId: number, name: string, namePinyin: string | null): Promise<void> {
  await tx.execute(
    sql`update im_group set name = ${name}, name_pinyin = ${namePinyin}, updated_at = now() where id = ${groupId}`,
  );
}

export async function setGroupOwner(tx: Tx, groupId: number, ownerPersonId: number): Promise<void> {
  await tx.execute(sql`update im_group set owner_person_id = ${ownerPersonId} where id = ${groupId}`);
}

export async function setGroupDismissed(tx: Tx, groupId: number): Promise<void> {
  await tx.execute(sql`update im_group set dismissed = true, updated_at = now() where id = ${groupId}`);
}

/** The private chat of a and b in the estate, if there is one. */
export async function findPrivateChat(tx: DbOrTx, tenant: TenantScope, a: number, b: number): Promise<number | null> {
  const [found] = await queryRows<{ id: number }>(
    tx,
    sql`select g.id from im_group g
        join im_group_member x on x.group_id = g.id and x.person_id = ${a}
        join im_group_member y on y.group_id = g.id and y.person_id = ${b}
        where g.group_type = ${ChatGroupType.private} and not g.dismissed
          and g.company_id = ${tenant.companyId} and g.housing_estate_id = ${tenant.housingEstateId}
        limit 1`,
  );
  return found?.id ?? null;
}

/** One private chat per pair, even when both open it at once: a lock for the pair until commit. */
export async function lockPair(tx: Tx, a: number, b: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${Math.min(a, b)}, ${Math.max(a, b)})`);
}

// ---- records ----

export interface StoredRecord {
  recordId: number;
  groupId: number;
  seq: number;
  type: number;
  content: string;
  fromPersonId: number;
  fromName: string;
  fromImages: Images;
  clientId: string | null;
  createdAt: string;
}

interface RawRecord {
  id: number;
  group_id: number;
  seq: number;
  type: number;
  content: string;
  from_person_id: number;
  name: string;
  images: unknown;
  client_id: string | null;
  created_at: unknown;
}

const RECORD_COLUMNS = sql`r.id, r.group_id, r.seq, r.type, r.content, r.from_person_id, p.name, p.images, r.client_id, r.created_at`;

const toRecord = (r: RawRecord): StoredRecord => ({
  recordId: r.id,
  groupId: r.group_id,
  seq: r.seq,
  type: r.type,
  content: r.content,
  fromPersonId: r.from_person_id,
  fromName: r.name,
  fromImages: images(r.images),
  clientId: r.client_id,
  createdAt: iso(r.created_at) as string,
});

/** The record stored with this client id in the group, if any. */
export async function recordByClientId(db: DbOrTx, groupId: number, clientId: string): Promise<StoredRecord | null> {
  const [row] = await queryRows<RawRecord>(
    db,
    sql`select ${RECORD_COLUMNS} from im_chat_record r join person p on p.id = r.from_person_id
        where r.group_id = ${groupId} and r.client_id = ${clientId}`,
  );
  return row ? toRecord(row) : null;
}

/**
 * Stores a record with the group's next seq (the group row is locked by the caller, so seqs are
 * gapless). A counted record (every type but system lines) raises message_count, which every
 * other member's unread follows.
 */
export async function insertRecord(
  tx: Tx,
  tenant: TenantScope,
  r: { groupId: number; fromPersonId: number; type: number; content: string; clientId: string | null },
): Promise<StoredRecord & { messageCount: number }> {
  const counted = r.type !== ChatRecordType.system;
  const [{ seq, message_count }] = await queryRows<{ seq: number; message_count: number }>(
    tx,
    sql`update im_group set last_seq = last_seq + 1, message_count = message_count + ${counted ? 1 : 0}, updated_at = now(),
          last_type = ${r.type}, last_content = ${r.content}, last_from_person_id = ${r.fromPersonId}, last_at = now()
        where id = ${r.groupId} returning last_seq as seq, message_count`,
  );
  const [row] = await queryRows<RawRecord>(
    tx,
    sql`with r as (
          insert into im_chat_record (company_id, housing_estate_id, group_id, seq, from_person_id, type, content, client_id)
          values (${tenant.companyId}, ${tenant.housingEstateId}, ${r.groupId}, ${seq}, ${r.fromPersonId}, ${r.type}, ${r.content}, ${r.clientId})
          returning *)
        select ${RECORD_COLUMNS} from r join person p on p.id = r.from_person_id`,
  );
  return { ...toRecord(row), messageCount: message_count };
}

/** A page of records by seq (SPEC §7): desc back from `seq` (exclusive), asc forward after it. */
export async function listRecords(
  db: DbOrTx,
  q: { groupId: number; order: 'asc' | 'desc'; seq?: number; limit: number; offset: number },
): Promise<{ rows: StoredRecord[]; total: number }> {
  const desc = q.order === 'desc';
  const from = q.seq === undefined ? sql`true` : desc ? sql`r.seq < ${q.seq}` : sql`r.seq > ${q.seq}`;
  const [total, rows] = await Promise.all([
    // seq is gapless from 1, so the group's last seq is its record count.
    queryRows<{ n: number }>(db, sql`select last_seq as n from im_group where id = ${q.groupId}`),
    queryRows<RawRecord>(
      db,
      sql`select ${RECORD_COLUMNS} from im_chat_record r join person p on p.id = r.from_person_id
          where r.group_id = ${q.groupId} and ${from}
          order by r.seq ${desc ? sql`desc` : sql`asc`}
          limit ${q.limit} offset ${q.offset}`,
    ),
  ]);
  return { rows: rows.map(toRecord), total: Number(total[0]?.n ?? 0) };
}

/** One record of the group by seq. */
export async function recordBySeq(db: DbOrTx, groupId: number, seq: number): Promise<StoredRecord | null> {
  const [row] = await queryRows<RawRecord>(
    db,
    sql`select ${RECORD_COLUMNS} from im_chat_record r join person p on p.id = r.from_person_id
        where r.group_id = ${groupId} and r.seq = ${seq}`,
  );
  return row ? toRecord(row) : null;
}

/** The member has read the group up to its newest record; answers how many unread that cleared. */
export async function markRead(
  tx: Tx,
  groupId: number,
  personId: number,
): Promise<{ cleared: number; readSeq: number }> {
  const [row] = await queryRows<{ cleared: number; read_seq: number }>(
    tx,
    sql`update im_group_member m set read_seq = g.last_seq, read_count = g.message_count
        from im_group g, (select read_count from im_group_member where group_id = ${groupId} and person_id = ${personId} for update) old
        where g.id = m.group_id and m.group_id = ${groupId} and m.person_id = ${personId}
        returning g.message_count - old.read_count as cleared, m.read_seq`,
  );
  return { cleared: Math.max(0, Number(row?.cleared ?? 0)), readSeq: Number(row?.read_seq ?? 0) };
}

/** Below this share of all groups, a person's groups are read by primary key (see groupsByLookup). */
const LOOKUP_BELOW_SHARE = 0.25;

/**
 * Unread chat records of a person over every group of the estate they are still in (one row, `n`),
 * with placeholders personId, companyId, housingEstateId. The plan is chosen by the person's share
 * of the groups, as the conversation list's (`groupsByLookup`), but inside the statement (it is
 * prepared once, and its generic plan cannot see the person): both forms are planned, and a
 * one-time filter on the share runs only one — the person's groups by primary key one by one
 * where they are a small share of all groups (offset 0 keeps the planner from turning it back into
 * a hash join), else the join (README "Instant messaging", sixth pass).
 */
export function unreadTotalSql(p: (name: 'personId' | 'companyId' | 'housingEstateId') => SQL): SQL {
  return unreadTotalSqlBelowShare(LOOKUP_BELOW_SHARE, p);
}

/** `unreadTotalSql` with the share below which the groups are read by lookup (tests take both forms). */
export function unreadTotalSqlBelowShare(
  share: number,
  p: (name: 'personId' | 'companyId' | 'housingEstateId') => SQL,
): SQL {
  const byLookup = sql`(select count(*) from im_group_member where person_id = ${p('personId')} and quit_at is null)
    < ${sql.raw(String(Number(share)))} * (select reltuples from pg_class where oid = 'im_group'::regclass)`;
  return sql`select sum(n) as n from (
          select g.message_count - m.read_count as n
          from im_group_member m cross join lateral (
            select g0.message_count from im_group g0
            where g0.id = m.group_id and not g0.dismissed
              and g0.company_id = ${p('companyId')} and g0.housing_estate_id = ${p('housingEstateId')}
            offset 0) g
          where m.person_id = ${p('personId')} and m.quit_at is null and ${byLookup}
          union all
          select g.message_count - m.read_count
          from im_group_member m join im_group g on g.id = m.group_id
          where m.person_id = ${p('personId')} and m.quit_at is null and not g.dismissed
            and g.company_id = ${p('companyId')} and g.housing_estate_id = ${p('housingEstateId')}
            and not (${byLookup})) mine`;
}

const unreadTotalQuery = preparedQuery<
  { n: number | string | null },
  { personId: number; companyId: number; housingEstateId: number }
>('chat.unread-total', unreadTotalSql);

/** The values of `unreadTotalSql`'s placeholders. */
export const unreadTotalValues = (personId: number, tenant: TenantScope) => ({
  personId,
  companyId: tenant.companyId,
  housingEstateId: tenant.housingEstateId,
});

/** The total from the rows of `unreadTotalSql`. */
export const readUnreadTotal = (rows: { n?: unknown }[]): number => Number(rows[0]?.n ?? 0);

export async function unreadTotal(db: DbOrTx, personId: number, tenant: TenantScope): Promise<number> {
  return readUnreadTotal(await unreadTotalQuery(db, unreadTotalValues(personId, tenant)));
}

// ---- the conversation list ----

export interface ConversationFilter {
  key?: string;
  /** Also match full Pinyin and initials (im_person_pinyin, im_group.name_pinyin). */
  pinyinKey?: string;
  groupType?: number;
}

export interface ConversationRow {
  groupId: number;
  groupType: number;
  groupName: string;
  isWorkGroup: boolean;
  ownerPersonId: number;
  unread: number;
  lastSeq: number;
  lastRecord: {
    seq: number;
    type: number;
    content: string;
    fromPersonId: number;
    fromName: string;
    createdAt: string;
  } | null;
  members: { personId: number; name: string; images: Images }[];
  memberCount: number;
  other: { personId: number; resident: boolean } | null;
  updatedAt: string | null;
}

/**
 * Whether a person's groups are better read by primary key one by one (nested loop) than by
 * hashing the whole group table: when they are a small share of it. The planner does not see the
 * share (it hash-joins a sequential scan of all groups even when the person is in 2 % of them,
 * README "Instant messaging", fifth pass), so it is asked here: the person's current memberships
 * (index-only, im_group_member_person_current_idx) against the table's estimated rows (pg_class,
 * kept by ANALYZE; unknown counts as "hash").
 */
export const conversationListPlan = {
  /** Below this share of all groups: by lookup. null: always the join (as before; the bench compares). */
  lookupBelowShare: LOOKUP_BELOW_SHARE as number | null,
};
/** The two numbers per database and person, kept a minute (the share moves slowly; only speed depends on it). */
const SHARE_KEPT_MS = 60_000;
const shares = new WeakMap<object, Map<number, { mine: number; groups: number; at: number }>>();

export async function groupsByLookup(db: DbOrTx, me: number): Promise<boolean> {
  const share = conversationListPlan.lookupBelowShare;
  if (share === null) return false;
  let kept = shares.get(db);
  if (!kept) shares.set(db, (kept = new Map()));
  let known = kept.get(me);
  if (!known || Date.now() - known.at > SHARE_KEPT_MS) {
    const [row] = await queryRows<{ mine: number; groups: number }>(
      db,
      sql`select (select count(*) from im_group_member where person_id = ${me} and quit_at is null)::int as mine,
                 (select reltuples from pg_class where oid = 'im_group'::regclass)::float8 as groups`,
    );
    known = { mine: Number(row?.mine ?? 0), groups: Number(row?.groups ?? 0), at: Date.now() };
    // Not kept while the table was never analysed (-1): the next call asks again.
    if (known.groups > 0) {
      if (kept.size >= 10_000) kept.clear();
      kept.set(me, known);
    }
  }
  return known.groups > 0 && known.mine < known.groups * share;
}

/** The values of the list's statement: the person, the estate, the page. */
type ListValues = { me: number; companyId: number; housingEstateId: number; limit: number; offset: number };
type ListParam = (name: keyof ListValues) => SQL;

/**
 * One row of the list's statement, as the driver reads it in array mode (its columns in the
 * statement's order, no object per row: at 1,000 rows the driver's objects were up to ~2 ms of
 * the api's CPU for the call; README "The cost of a call", Part 12). The row's numbers come
 * packed in one text (`n`: groupId, groupType, ownerPersonId, isWorkGroup 0/1, unread clamped at 0, lastSeq, memberCount,
 * lastType, lastFromPersonId, the other person's id, resident 0/1; an empty field is null), so the
 * driver reads 9 values a row instead of 19 (README "Instant messaging", seventh pass).
 */
type ListRow = [
  n: string,
  name: string,
  content: string | null,
  fromName: string | null,
  otherName: string | null,
  otherImages: string | null,
  lastAt: unknown,
  updatedAt: unknown,
  total: number,
];
/** Where `total` is in a ListRow. */
const TOTAL = 8;

/**
 * The list's statement over `groupsOfMine` (m: the person's memberships, g: their groups), `filters` on g.
 * The last sender's name and a private chat's owner's and peer's name, avatar list and resident flag
 * are read from the group, where the triggers of migration 0047 keep them (README "Issue 31: the
 * conversation list's statement"): no join with `person` or `person_house` per row. Only a private
 * chat of mine without a peer (none since the migration that filled peers in) reads its other
 * member and that person by sub-queries.
 */
function listSql(p: ListParam, groupsOfMine: SQL, filters: SQL): SQL {
  return sql`with page as (
          select g.id, g.group_type, g.name, g.owner_person_id, g.is_work_group, g.last_seq, g.member_count,
                 g.updated_at, g.message_count - m.read_count as unread,
                 g.last_type, g.last_content, g.last_from_person_id, g.last_from_name, g.last_at,
                 coalesce(g.updated_at, g.created_at) as active_at, count(*) over ()::int as total,
                 -- A private chat's other party: its owner, or its peer when the owner is me (the
                 -- member lookup only for a chat without a peer, which the migration filled in).
                 case when g.group_type = ${ChatGroupType.private} then
                   case when g.owner_person_id <> ${p('me')} then g.owner_person_id
                        else coalesce(g.peer_person_id, (select om.person_id from im_group_member om
                          where om.group_id = g.id and om.person_id <> ${p('me')} limit 1)) end
                 end as other_id,
                 -- Where that party's name, avatar list and resident flag are: 1 the owner's
                 -- columns, 2 the peer's, 3 neither (the person read by sub-queries).
                 case when g.group_type = ${ChatGroupType.private} then
                   case when g.owner_person_id <> ${p('me')} then 1 when g.peer_person_id is not null then 2 else 3 end
                 end as other_at,
                 g.owner_name, g.owner_images, g.owner_resident, g.peer_name, g.peer_images, g.peer_resident
          from ${groupsOfMine}
          where m.person_id = ${p('me')} and m.quit_at is null and not g.dismissed
            and g.company_id = ${p('companyId')} and g.housing_estate_id = ${p('housingEstateId')} and ${filters}
          order by active_at desc, g.id desc
          limit ${p('limit')} offset ${p('offset')}),
        other as (
          select page.*,
                 case page.other_at when 1 then page.owner_name when 2 then page.peer_name
                   when 3 then (select op.name from person op where op.id = page.other_id) end as other_name,
                 case page.other_at when 1 then page.owner_images when 2 then page.peer_images
                   when 3 then (select op.images::text from person op where op.id = page.other_id) end as other_images,
                 case page.other_at when 1 then page.owner_resident when 2 then page.peer_resident
                   when 3 then exists (select 1 from person_house ph
                     where ph.person_id = page.other_id and ph.status = ${JoinStatus.approved}) end as other_resident
          from page)
        -- A person's name is never null, so a null name is a missing person: no other party, as the
        -- left join with person gave.
        select format('%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s', o.id, o.group_type, o.owner_person_id,
                 o.is_work_group::int, greatest(o.unread, 0), o.last_seq, o.member_count, o.last_type,
                 o.last_from_person_id, case when o.other_name is not null then o.other_id end,
                 (o.other_name is not null and o.other_resident)::int) as n,
               case when o.group_type = ${ChatGroupType.private} then coalesce(o.other_name, o.name, '')
                    else coalesce(o.name, '') end as name,
               o.last_content as content, o.last_from_name as from_name, o.other_name, o.other_images,
               o.last_at, o.updated_at, o.total
        from other o
        order by o.active_at desc, o.id desc`;
}

/** The person's groups: one primary-key lookup per membership (offset 0 keeps the planner from
 * turning it back into a hash join), or the join. */
const GROUPS_BY_LOOKUP = sql`im_group_member m cross join lateral (select * from im_group g0 where g0.id = m.group_id offset 0) g`;
const GROUPS_BY_JOIN = sql`im_group_member m join im_group g on g.id = m.group_id`;

/** The list without a key or type filter (the console's chat list as it opens and refreshes), prepared. */
const listPrepared = {
  lookup: preparedQuery<ListRow, ListValues>('chat.list.lookup', (p) => listSql(p, GROUPS_BY_LOOKUP, sql`true`), {
    arrays: true,
  }),
  join: preparedQuery<ListRow, ListValues>('chat.list.join', (p) => listSql(p, GROUPS_BY_JOIN, sql`true`), {
    arrays: true,
  }),
};

/** The eleven numbers of a row's `n`, read in place (reused: mapping a row allocates no string for them). */
const packed: (number | null)[] = new Array<number | null>(11).fill(null);

/**
 * Reads `n` ("12,1,3,0,…", an empty field is null) into `packed`. The fields are PostgreSQL's
 * integers as text (digits, maybe a minus sign): `Number` of each gives the same values, without
 * the eleven strings and the array `split` made for every row (README "The cost of a call", Part 12:
 * 11,000 short strings a 1,000-row page).
 */
function readPacked(n: string): (number | null)[] {
  let field = 0;
  let value = 0;
  let digits = false;
  let negative = false;
  for (let i = 0; i <= n.length; i++) {
    const c = i < n.length ? n.charCodeAt(i) : 44; // the end closes the last field as a comma would
    if (c === 44) {
      packed[field++] = digits ? (negative ? -value : value) : null;
      value = 0;
      digits = false;
      negative = false;
    } else if (c === 45) negative = true;
    else {
      value = value * 10 + (c - 48);
      digits = true;
    }
  }
  return packed;
}

/** One conversation from a row of the list's statement. */
function conversationOf(r: ListRow): ConversationRow {
  const [n, name, content, fromName, otherName, otherImages, lastAtText, updatedAt] = r;
  const [id, groupType, owner, isWork, unread, lastSeq, memberCount, lastType, lastFrom, otherId, resident] =
    readPacked(n);
  // Fields read with Number() before are 0 when empty, as Number('') is.
  const other = otherId;
  const lastAt = iso(lastAtText);
  return {
    groupId: id ?? 0,
    groupType: groupType ?? 0,
    groupName: name,
    isWorkGroup: isWork === 1,
    ownerPersonId: owner ?? 0,
    unread: unread ?? 0,
    lastSeq: lastSeq ?? 0,
    lastRecord:
      lastAt === null
        ? null
        : {
            seq: lastSeq ?? 0,
            type: lastType as number,
            content: content as string,
            fromPersonId: lastFrom as number,
            fromName: fromName as string,
            createdAt: lastAt,
          },
    members:
      other === null
        ? []
        : [
            {
              personId: other,
              name: otherName ?? '',
              images: otherImages === null ? [] : images(otherImages),
            },
          ],
    memberCount: memberCount ?? 0,
    other: other === null ? null : { personId: other, resident: resident === 1 },
    updatedAt: iso(updatedAt),
  };
}

/**
 * Each conversation's JSON, kept while its row does not change (issue 31, the last two budgets):
 * the console reads the whole list again on every chat event, and of 1,000 rows one or two have
 * changed. Mapping the rows to objects, writing the ~0.4 MB of JSON and encoding it was ~3 ms of
 * the api's CPU a call and most of its garbage; a kept row's bytes are written as they are. Found
 * by the row's packed numbers (`n`: the group, unread, last seq, the other person…), kept only if
 * every other column is the same. 10,000 rows a generation (≤ 20,000 kept: each its row and its bytes, ~1 KB, so ≤ ~20 MB).
 */
const conversationJson = new JsonMemo<ListRow>(10_000, conversationOf, sameRow);

/** Whether two rows give the same conversation: every column conversationOf reads (all but the total) equal. */
function sameRow(a: ListRow, b: ListRow): boolean {
  for (let i = 0; i < TOTAL; i++) {
    const x = a[i];
    const y = b[i];
    // A time may come as a Date (to the millisecond, as iso() writes it).
    if (x !== y && !(x instanceof Date && y instanceof Date && x.getTime() === y.getTime())) return false;
  }
  return true;
}

/** The conversation of a row as JSON, from conversationJson. */
const conversationBytes = (r: ListRow): JsonBytes => conversationJson.json(r[0], r);

/** The key and type filters of the list, on g (the group) and its members. */
function listFilters(me: number, f: ConversationFilter): SQL[] {
  const filters: SQL[] = [];
  if (f.groupType) filters.push(sql`g.group_type = ${f.groupType}`);
  if (f.key) {
    const like = likePattern(f.key);
    const pinyinLike = f.pinyinKey ? likePattern(f.pinyinKey) : null;
    filters.push(sql`(g.name ilike ${like} ${pinyinLike ? sql`or g.name_pinyin like ${pinyinLike}` : sql``}
      or exists (select 1 from im_group_member om join person op on op.id = om.person_id
        ${pinyinLike ? sql`left join im_person_pinyin opp on opp.person_id = op.id` : sql``}
        where om.group_id = g.id and om.quit_at is null and om.person_id <> ${me}
          and (op.name ilike ${like} ${pinyinLike ? sql`or opp.keys like ${pinyinLike}` : sql``})))`);
  }
  return filters;
}

/** The list's statement with its values in it (the filtered lists; the bench's EXPLAIN). */
export function conversationListSql(
  tenant: TenantScope,
  me: number,
  f: ConversationFilter,
  limit: number,
  offset: number,
  byLookup: boolean,
): SQL {
  const values: ListValues = {
    me,
    companyId: tenant.companyId,
    housingEstateId: tenant.housingEstateId,
    limit,
    offset,
  };
  const filters = listFilters(me, f);
  return listSql(
    (name) => sql`${values[name]}`,
    byLookup ? GROUPS_BY_LOOKUP : GROUPS_BY_JOIN,
    filters.length === 0 ? sql`true` : sql.join(filters, sql` and `),
  );
}

/**
 * A person's conversations, newest activity first. The page's groups come from the person's memberships
 * alone (index im_group_member_person_current_idx); the last record's copy is on the group row, and
 * only the page is joined with its sender and, for a private chat, the other person (the row's
 * avatar and `members`: the owner or the group's peer_person_id, no member lookup per row); a
 * group's members are its `member_count`, the whole list is groupMembers(). One statement: the
 * total is a window count taken before the page is cut (the sort reads them all anyway); prepared
 * when there is no key or type filter. Each row comes as its JSON (JsonBytes, written into the answer as
 * it is; it stands for the ConversationRow anywhere else), kept while the row does not change.
 */
export async function listConversations(
  db: DbOrTx,
  tenant: TenantScope,
  me: number,
  f: ConversationFilter,
  limit: number,
  offset: number,
): Promise<{ rows: JsonBytes[]; total: number }> {
  // The person's groups: by lookup where they are a small share of all groups, else the join.
  const byLookup = await groupsByLookup(db, me);
  const filters = listFilters(me, f);
  const rows =
    filters.length === 0
      ? await listPrepared[byLookup ? 'lookup' : 'join'](db, {
          me,
          companyId: tenant.companyId,
          housingEstateId: tenant.housingEstateId,
          limit,
          offset,
        })
      : await queryArrays<ListRow>(db, conversationListSql(tenant, me, f, limit, offset, byLookup));
  // A page past the end has no row to carry the total.
  const total =
    rows.length > 0
      ? Number(rows[0][TOTAL])
      : offset === 0
        ? 0
        : ((
            await queryRows<{ n: number }>(
              db,
              sql`select count(*)::int as n from ${byLookup ? GROUPS_BY_LOOKUP : GROUPS_BY_JOIN}
                where m.person_id = ${me} and m.quit_at is null and not g.dismissed
                  and g.company_id = ${tenant.companyId} and g.housing_estate_id = ${tenant.housingEstateId}
                  and ${filters.length === 0 ? sql`true` : sql.join(filters, sql` and `)}`,
            )
          )[0]?.n ?? 0);
  return { total, rows: rows.map(conversationBytes) };
}

/** The group's current members with name and avatar, oldest first. */
export async function groupMembers(
  db: DbOrTx,
  groupId: number,
): Promise<{ personId: number; name: string; images: Images }[]> {
  const rows = await queryRows<{ id: number; name: string; images: unknown }>(
    db,
    sql`select p.id, p.name, p.images from im_group_member m join person p on p.id = m.person_id
        where m.group_id = ${groupId} and m.quit_at is null order by m.joined_at, p.id`,
  );
  return rows.map((r) => ({ personId: r.id, name: r.name, images: images(r.images) }));
}

/** Name and avatar of one person. */
export async function personBrief(db: DbOrTx, personId: number): Promise<{ name: string; avatar: string | null }> {
  const [row] = await queryRows<{ name: string; images: unknown }>(
    db,
    sql`select name, images from person where id = ${personId}`,
  );
  return { name: row?.name ?? '', avatar: images(row?.images)[0]?.url ?? null };
}

// ---- uploads named by a message ----

/** An upload of the person: its category by content type ('image', 'audio/…', other), and size. */
export async function ownUpload(
  db: DbOrTx,
  personId: number,
  path: string,
): Promise<{ contentType: string; size: number } | null> {
  const [row] = await queryRows<{ content_type: string; size: number }>(
    db,
    sql`select content_type, size from upload_file where person_id = ${personId} and path = ${path} limit 1`,
  );
  return row ? { contentType: row.content_type, size: row.size } : null;
}
