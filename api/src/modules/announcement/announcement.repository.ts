import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { AnnouncementType, ReadResult, type AnnouncementRecipients } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { isoOrNull as iso, likePattern, queryRows } from '../../db/sql';
import { announcement, announcementOption, announcementRead, announcementVote } from '../../db/schema';
import type { TenantScope } from '../../http/request-context';

/** An announcement as stored. */
export type AnnouncementRecord = typeof announcement.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Recipients: persons with an approved link (person_house.status 2) to a unit of the chosen
// blocks, a space of the chosen car parks or one of the chosen shops, with one of the chosen
// identities, in the estate. Resolved once, set-based, when the announcement is published.
// ---------------------------------------------------------------------------------------------

const intArray = (ids: number[]) => sql`${`{${ids.map((n) => Math.trunc(n)).join(',')}}`}::int[]`;

/** The `person_house ph` rows a set of recipients reaches (joins unit u and car_space cs). */
function reachedLinks(tenant: TenantScope, r: AnnouncementRecipients): SQL {
  return sql`from person_house ph
      left join unit u on u.id = ph.unit_id
      left join car_space cs on cs.id = ph.car_space_id
    where ph.company_id = ${tenant.companyId} and ph.housing_estate_id = ${tenant.housingEstateId}
      and ph.status = 2 and ph.identity = any(${intArray(r.recipientIdentities)})
      and ((ph.house_type = 1 and u.block_id = any(${intArray(r.recipientBlockIds)}))
        or (ph.house_type = 2 and cs.car_park_id = any(${intArray(r.recipientCarParkIds)}))
        or (ph.house_type = 3 and ph.shop_id = any(${intArray(r.recipientShopIds)})))`;
}

/** How many distinct persons these recipients reach. */
export async function countRecipients(db: DbOrTx, tenant: TenantScope, r: AnnouncementRecipients): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(distinct ph.person_id)::int as n ${reachedLinks(tenant, r)}`,
  );
  return row.n;
}

/** Stores the persons an announcement reaches (one INSERT … SELECT) and answers their ids. */
export async function insertRecipients(
  db: DbOrTx,
  tenant: TenantScope,
  announcementId: number,
  r: AnnouncementRecipients,
): Promise<number[]> {
  const rows = await queryRows<{ person_id: number }>(
    db,
    sql`insert into announcement_recipient (announcement_id, person_id)
        select distinct ${announcementId}::int, ph.person_id ${reachedLinks(tenant, r)}
        on conflict do nothing
        returning person_id`,
  );
  return rows.map((x) => x.person_id);
}

/** Every recipient of an announcement. */
export async function recipientsOf(db: DbOrTx, announcementId: number): Promise<number[]> {
  const rows = await queryRows<{ person_id: number }>(
    db,
    sql`select person_id from announcement_recipient where announcement_id = ${announcementId}`,
  );
  return rows.map((x) => x.person_id);
}

/** The estate's blocks, car parks and shops, by name. */
export async function recipientChoices(db: DbOrTx, tenant: TenantScope) {
  const scope = sql`company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}`;
  const [blocks, carParks, shops] = await Promise.all([
    queryRows<{ id: number; name: string }>(db, sql`select id, name from block where ${scope} order by name, id`),
    queryRows<{ id: number; name: string }>(db, sql`select id, name from car_park where ${scope} order by name, id`),
    queryRows<{ id: number; name: string }>(
      db,
      sql`select id, coalesce(name, shop_code) as name from shop where ${scope} order by shop_code, id`,
    ),
  ]);
  return { blocks, carParks, shops };
}

// ---------------------------------------------------------------------------------------------
// Staff: write, list, detail, readers, revoke.
// ---------------------------------------------------------------------------------------------

export interface NewAnnouncement extends AnnouncementRecipients {
  type: number;
  title: string;
  content: string;
  allowComment: boolean;
  deadline: Date | null;
  meetingPlace: string | null;
  meetingTime: Date | null;
  selectionMode: number | null;
  reminderInterval: number | null;
  nextReminderAt: Date | null;
  publishTime: Date;
  scheduledAt: Date | null;
}

/** Stores the announcement and its options; answers its id. */
export async function insertAnnouncement(
  db: DbOrTx,
  tenant: TenantScope,
  publisherPersonId: number,
  a: NewAnnouncement,
  options: string[],
): Promise<number> {
  const [row] = await db
    .insert(announcement)
    .values({ ...tenant, ...a, publisherPersonId })
    .returning({ id: announcement.id });
  if (options.length > 0)
    await db
      .insert(announcementOption)
      .values(options.map((content, sort) => ({ announcementId: row.id, content, sort })));
  return row.id;
}

/** A list row (with recipient and read counts). */
export interface AnnouncementListRow {
  id: number;
  type: number;
  title: string;
  publisherName: string;
  publishTime: string;
  deadline: string | null;
  revoked: boolean;
  revokedAt: string | null;
  scheduled: boolean;
  recipientCount: number;
  readCount: number;
}

interface RawListRow {
  id: number;
  type: number;
  title: string;
  publisher_name: string | null;
  publish_time: unknown;
  deadline: unknown;
  revoked: boolean;
  revoked_at: unknown;
  scheduled: boolean;
  recipient_count: number;
  read_count: number;
}

// Reads and votes come only from recipients (the resident calls check it), so each count is one
// index-only scan of its table's (announcement_id, person_id) key.
const RECIPIENT_COUNT = sql`(select count(*)::int from announcement_recipient ar where ar.announcement_id = a.id)`;
const READ_COUNT = sql`(select count(*)::int from announcement_read rd where rd.announcement_id = a.id)`;
const LIST_COLUMNS = sql`a.id, a.type, a.title, p.name as publisher_name, a.publish_time, a.deadline, a.revoked, a.revoked_at,
  a.scheduled_at is not null as scheduled,
  ${RECIPIENT_COUNT} as recipient_count, ${READ_COUNT} as read_count`;

function toListRow(r: RawListRow): AnnouncementListRow {
  return {
    id: r.id,
    type: r.type,
    title: r.title,
    publisherName: r.publisher_name ?? '',
    publishTime: iso(r.publish_time)!,
    deadline: iso(r.deadline),
    revoked: r.revoked,
    revokedAt: iso(r.revoked_at),
    scheduled: r.scheduled,
    recipientCount: Number(r.recipient_count),
    readCount: Number(r.read_count),
  };
}

export interface AnnouncementFilter {
  type?: number;
  revoked?: number;
  keyword?: string;
}

/** The estate's announcements, newest first. */
export async function listAnnouncements(
  db: DbOrTx,
  tenant: TenantScope,
  f: AnnouncementFilter,
  limit: number,
  offset: number,
): Promise<{ rows: AnnouncementListRow[]; total: number }> {
  const where = [sql`a.company_id = ${tenant.companyId} and a.housing_estate_id = ${tenant.housingEstateId}`];
  if (f.type !== undefined) where.push(sql`a.type = ${f.type}`);
  if (f.revoked !== undefined) where.push(sql`a.revoked = ${f.revoked === 1}`);
  if (f.keyword) where.push(sql`a.title ilike ${likePattern(f.keyword)}`);
  const cond = sql.join(where, sql` and `);
  const [rows, [count]] = await Promise.all([
    queryRows<RawListRow>(
      db,
      sql`select ${LIST_COLUMNS} from announcement a left join person p on p.id = a.publisher_person_id
          where ${cond} order by a.publish_time desc, a.id desc limit ${limit} offset ${offset}`,
    ),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from announcement a where ${cond}`),
  ]);
  return { rows: rows.map(toListRow), total: Number(count.n) };
}

/** The announcement of the tenant, or null. */
export async function announcementOf(db: DbOrTx, tenant: TenantScope, id: number): Promise<AnnouncementRecord | null> {
  const [row] = await db
    .select()
    .from(announcement)
    .where(
      and(
        eq(announcement.id, id),
        eq(announcement.companyId, tenant.companyId),
        eq(announcement.housingEstateId, tenant.housingEstateId),
      ),
    );
  return row ?? null;
}

/** Read-result totals over the recipients (three index-only counts). */
export async function readTotals(db: DbOrTx, id: number) {
  const [t] = await queryRows<{ recipients: number; read: number; voted: number }>(
    db,
    sql`select (select count(*)::int from announcement_recipient where announcement_id = ${id}) as recipients,
               (select count(*)::int from announcement_read where announcement_id = ${id}) as read,
               (select count(distinct person_id)::int from announcement_vote where announcement_id = ${id}) as voted`,
  );
  const recipients = Number(t.recipients);
  const read = Number(t.read);
  const voted = Number(t.voted);
  return { recipients, unread: recipients - read, read, readNotVoted: read - voted, readAndVoted: voted };
}

/** The options with their vote counts, in their order. */
export async function optionResults(db: DbOrTx, id: number) {
  const rows = await queryRows<{ id: number; content: string; votes: number }>(
    db,
    sql`select o.id, o.content, count(v.id)::int as votes
        from announcement_option o left join announcement_vote v on v.option_id = o.id
        where o.announcement_id = ${id} group by o.id, o.content, o.sort order by o.sort, o.id`,
  );
  return rows.map((r) => ({ id: r.id, content: r.content, votes: Number(r.votes) }));
}

/** The detail answer: the row, content, recipients, options with votes and read totals. */
export async function findAnnouncement(db: DbOrTx, tenant: TenantScope, id: number) {
  const [raw] = await queryRows<RawListRow>(
    db,
    sql`select ${LIST_COLUMNS} from announcement a left join person p on p.id = a.publisher_person_id
        where a.id = ${id} and a.company_id = ${tenant.companyId} and a.housing_estate_id = ${tenant.housingEstateId}`,
  );
  if (!raw) return null;
  const [a, options, totals] = await Promise.all([
    announcementOf(db, tenant, id),
    optionResults(db, id),
    readTotals(db, id),
  ]);
  if (!a) return null;
  return {
    ...toListRow(raw),
    content: a.content,
    allowComment: a.allowComment,
    meetingPlace: a.meetingPlace,
    meetingTime: iso(a.meetingTime),
    selectionMode: a.selectionMode,
    reminderInterval: a.reminderInterval,
    recipientBlockIds: a.recipientBlockIds,
    recipientCarParkIds: a.recipientCarParkIds,
    recipientShopIds: a.recipientShopIds,
    recipientIdentities: a.recipientIdentities,
    options,
    totals,
  };
}
export type AnnouncementDetailRow = NonNullable<Awaited<ReturnType<typeof findAnnouncement>>>;

/** One recipient with their read result. */
export interface ReaderRow {
  personId: number;
  name: string;
  readResult: number;
  readTime: string | null;
  optionIds: number[];
}

async function countOf(db: DbOrTx, query: SQL): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, query);
  return Number(row.n);
}

type RawReader = { person_id: number; name: string | null; read_time: unknown; option_ids: number[] | string | null };

const OPTION_IDS = (
  personId: SQL,
) => sql`(select coalesce(array_agg(v.option_id order by v.option_id), '{}') from announcement_vote v
   where v.announcement_id = ${sql.raw('x.announcement_id')} and v.person_id = ${personId})`;

/**
 * The read list (read 1: latest read first) or the unread list (read 0: by person), or every
 * recipient; each with the read result and chosen options. Each list is driven by its own key:
 * the read list by announcement_read, the unread list by the recipients without a read row.
 */
export async function listReaders(
  db: DbOrTx,
  a: AnnouncementRecord,
  read: number | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: ReaderRow[]; total: number }> {
  const page = sql`limit ${limit} offset ${offset}`;
  let rows: RawReader[];
  let total: number;
  if (read === 1) {
    [rows, total] = await Promise.all([
      queryRows<RawReader>(
        db,
        sql`select x.person_id, p.name, x.read_time, ${OPTION_IDS(sql.raw('x.person_id'))} as option_ids
            from announcement_read x join person p on p.id = x.person_id
            where x.announcement_id = ${a.id} order by x.read_time desc, x.person_id ${page}`,
      ),
      countOf(db, sql`select count(*)::int as n from announcement_read where announcement_id = ${a.id}`),
    ]);
  } else if (read === 0) {
    [rows, total] = await Promise.all([
      queryRows<RawReader>(
        db,
        sql`select x.person_id, p.name, null as read_time, '{}'::int[] as option_ids
            from announcement_recipient x join person p on p.id = x.person_id
            where x.announcement_id = ${a.id}
              and not exists (select 1 from announcement_read rd where rd.announcement_id = x.announcement_id and rd.person_id = x.person_id)
            order by x.person_id ${page}`,
      ),
      countOf(
        db,
        sql`select (select count(*)::int from announcement_recipient where announcement_id = ${a.id})
                 - (select count(*)::int from announcement_read where announcement_id = ${a.id}) as n`,
      ),
    ]);
  } else {
    [rows, total] = await Promise.all([
      queryRows<RawReader>(
        db,
        sql`select x.person_id, p.name, rd.read_time, ${OPTION_IDS(sql.raw('x.person_id'))} as option_ids
            from announcement_recipient x join person p on p.id = x.person_id
            left join announcement_read rd on rd.announcement_id = x.announcement_id and rd.person_id = x.person_id
            where x.announcement_id = ${a.id} order by rd.read_time desc nulls last, x.person_id ${page}`,
      ),
      countOf(db, sql`select count(*)::int as n from announcement_recipient where announcement_id = ${a.id}`),
    ]);
  }
  const isVote = a.type === AnnouncementType.vote;
  return {
    rows: rows.map((r) => {
      const optionIds = parseIntArray(r.option_ids);
      const readResult =
        r.read_time === null
          ? ReadResult.unread
          : !isVote
            ? ReadResult.read
            : optionIds.length > 0
              ? ReadResult.readAndVoted
              : ReadResult.readNotVoted;
      return { personId: r.person_id, name: r.name ?? '', readResult, readTime: iso(r.read_time), optionIds };
    }),
    total,
  };
}

/** An int[] column as either driver answers it (an array, or PostgreSQL's `{1,2}` text). */
function parseIntArray(v: number[] | string | null): number[] {
  if (v === null) return [];
  if (Array.isArray(v)) return v.map(Number);
  return v.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
}

/** Marks it revoked if it was not; answers whether it changed. */
export async function markRevoked(db: DbOrTx, tenant: TenantScope, id: number): Promise<boolean> {
  const rows = await db
    .update(announcement)
    .set({ revoked: true, revokedAt: new Date(), nextReminderAt: null })
    .where(
      and(
        eq(announcement.id, id),
        eq(announcement.companyId, tenant.companyId),
        eq(announcement.housingEstateId, tenant.housingEstateId),
        eq(announcement.revoked, false),
      ),
    )
    .returning({ id: announcement.id });
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Residents: their list, read, vote.
// ---------------------------------------------------------------------------------------------

/** An announcement sent to the person (revoked ones too: the caller decides); null otherwise. */
export async function receivedAnnouncement(
  db: DbOrTx,
  personId: number,
  id: number,
): Promise<AnnouncementRecord | null> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select announcement_id as id from announcement_recipient where announcement_id = ${id} and person_id = ${personId}`,
  );
  if (rows.length === 0) return null;
  const [row] = await db.select().from(announcement).where(eq(announcement.id, id));
  // Published at a set time that has not come: not there yet for residents.
  if (!row || row.scheduledAt) return null;
  return row;
}

/** The announcements sent to the person that are not revoked, newest first, with read state and vote. */
export async function receivedAnnouncements(db: DbOrTx, personId: number) {
  const rows = await queryRows<{
    id: number;
    type: number;
    title: string;
    content: string;
    publish_time: unknown;
    deadline: unknown;
    meeting_place: string | null;
    meeting_time: unknown;
    selection_mode: number | null;
    read: boolean;
    option_ids: number[] | string | null;
  }>(
    db,
    sql`select a.id, a.type, a.title, a.content, a.publish_time, a.deadline, a.meeting_place, a.meeting_time,
          a.selection_mode,
          exists (select 1 from announcement_read rd where rd.announcement_id = a.id and rd.person_id = ${personId}) as read,
          (select coalesce(array_agg(v.option_id order by v.option_id), '{}') from announcement_vote v
           where v.announcement_id = a.id and v.person_id = ${personId}) as option_ids
        from announcement_recipient ar join announcement a on a.id = ar.announcement_id
        where ar.person_id = ${personId} and not a.revoked and a.scheduled_at is null
        order by a.publish_time desc, a.id desc limit 200`,
  );
  const ids = rows.map((r) => r.id);
  const options =
    ids.length === 0
      ? []
      : await db
          .select({
            id: announcementOption.id,
            announcementId: announcementOption.announcementId,
            content: announcementOption.content,
          })
          .from(announcementOption)
          .where(inArray(announcementOption.announcementId, ids))
          .orderBy(announcementOption.sort, announcementOption.id);
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    title: r.title,
    content: r.content,
    publishTime: iso(r.publish_time)!,
    deadline: iso(r.deadline),
    meetingPlace: r.meeting_place,
    meetingTime: iso(r.meeting_time),
    selectionMode: r.selection_mode,
    options: options.filter((o) => o.announcementId === r.id).map((o) => ({ id: o.id, content: o.content })),
    read: r.read,
    optionIds: parseIntArray(r.option_ids),
  }));
}

/** Marks it read by the person (idempotent); answers whether it was unread. */
export async function markAnnouncementRead(db: DbOrTx, announcementId: number, personId: number): Promise<boolean> {
  const rows = await db
    .insert(announcementRead)
    .values({ announcementId, personId })
    .onConflictDoNothing()
    .returning({ personId: announcementRead.personId });
  return rows.length > 0;
}

/** How many of these option ids belong to the announcement. */
export async function countOwnOptions(db: DbOrTx, announcementId: number, optionIds: number[]): Promise<number> {
  const options = await db
    .select({ id: announcementOption.id })
    .from(announcementOption)
    .where(and(eq(announcementOption.announcementId, announcementId), inArray(announcementOption.id, optionIds)));
  return options.length;
}

/** Replaces the person's vote with these options and marks the announcement read (inside the caller's transaction). */
export async function replaceVote(db: DbOrTx, announcementId: number, personId: number, optionIds: number[]) {
  await db
    .delete(announcementVote)
    .where(and(eq(announcementVote.announcementId, announcementId), eq(announcementVote.personId, personId)));
  await db.insert(announcementVote).values(optionIds.map((optionId) => ({ announcementId, personId, optionId })));
  await markAnnouncementRead(db, announcementId, personId);
}

// ---------------------------------------------------------------------------------------------
// Reminders: a schedule claimed in the database.
// ---------------------------------------------------------------------------------------------

/**
 * Claims the vote announcements whose reminder is due and moves each one's next reminder one
 * interval on, in one UPDATE. Two api processes running it at once each claim different rows:
 * PostgreSQL re-checks the WHERE on a row another transaction just updated, so a row is
 * claimed once per interval. Announcements past their deadline or revoked lose their schedule.
 */
/** Claims the due reminders; the next one is due one interval later, in units of the estate's setting. */
export async function claimDueReminders(
  db: DbOrTx,
  now: Date,
  defaultUnitMs: number,
): Promise<{ id: number; title: string; companyId: number; housingEstateId: number }[]> {
  await db.execute(
    sql`update announcement set next_reminder_at = null
        where next_reminder_at is not null and (revoked or (deadline is not null and deadline <= ${now.toISOString()}))`,
  );
  return queryRows(
    db,
    sql`update announcement
        set next_reminder_at = ${now.toISOString()}::timestamptz + (reminder_interval * coalesce(
              (select he.vote_reminder_unit_ms from housing_estate he where he.id = announcement.housing_estate_id),
              ${defaultUnitMs})) * interval '1 millisecond'
        where next_reminder_at <= ${now.toISOString()} and not revoked
        returning id, title, company_id as "companyId", housing_estate_id as "housingEstateId"`,
  );
}

/** Recipients who have not voted yet. */
export async function recipientsNotVoted(db: DbOrTx, announcementId: number): Promise<number[]> {
  const rows = await queryRows<{ person_id: number }>(
    db,
    sql`select ar.person_id from announcement_recipient ar
        where ar.announcement_id = ${announcementId}
          and not exists (select 1 from announcement_vote v where v.announcement_id = ar.announcement_id and v.person_id = ar.person_id)`,
  );
  return rows.map((r) => r.person_id);
}

/** The demo seed: stores the recipients of announcements inserted with their recipient columns. */
export async function seedAnnouncementRecipients(db: DbOrTx, tenant: TenantScope, ids: number[]): Promise<void> {
  for (const id of ids) {
    const [a] = await db.select().from(announcement).where(eq(announcement.id, id));
    await insertRecipients(db, tenant, id, a);
  }
}

// ---------------------------------------------------------------------------------------------
// Comments (when the announcement allows them); staff can hide one.
// ---------------------------------------------------------------------------------------------

const COMMENT_SELECT = sql`select c.id, c.person_id, p.name, c.content, c.created_at, c.hidden
  from announcement_comment c join person p on p.id = c.person_id`;

type RawComment = {
  id: number;
  person_id: number;
  name: string | null;
  content: string;
  created_at: unknown;
  hidden: boolean;
};
const toComment = (r: RawComment) => ({
  id: r.id,
  personId: r.person_id,
  name: r.name ?? '',
  content: r.content,
  createdAt: iso(r.created_at)!,
  hidden: r.hidden,
});

/** The comments of an announcement, oldest first; `visibleOnly` leaves hidden ones out. */
export async function listComments(db: DbOrTx, announcementId: number, visibleOnly: boolean) {
  const rows = await queryRows<RawComment>(
    db,
    sql`${COMMENT_SELECT} where c.announcement_id = ${announcementId}${visibleOnly ? sql` and not c.hidden` : sql``}
        order by c.created_at, c.id limit 500`,
  );
  return rows.map(toComment);
}

export async function insertComment(db: DbOrTx, announcementId: number, personId: number, content: string) {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into announcement_comment (announcement_id, person_id, content) values (${announcementId}, ${personId}, ${content}) returning id`,
  );
  const [c] = await queryRows<RawComment>(db, sql`${COMMENT_SELECT} where c.id = ${row.id}`);
  return toComment(c);
}

/** Hides or shows a comment of an announcement of the tenant; null when there is none. */
export async function setCommentHidden(db: DbOrTx, tenant: TenantScope, id: number, hidden: boolean) {
  const rows = await queryRows<{ id: number; announcement_id: number }>(
    db,
    sql`update announcement_comment c set hidden = ${hidden}
        from announcement a
        where c.id = ${id} and a.id = c.announcement_id
          and a.company_id = ${tenant.companyId} and a.housing_estate_id = ${tenant.housingEstateId}
        returning c.id, c.announcement_id`,
  );
  if (rows.length === 0) return null;
  const [c] = await queryRows<RawComment>(db, sql`${COMMENT_SELECT} where c.id = ${id}`);
  const comment = toComment(c);
  return { id: comment.id, hidden: comment.hidden, announcementId: rows[0].announcement_id, comment };
}

/**
 * Claims the announcements published at a set time that has come (one conditional UPDATE, so one
 * api process tells their recipients); revoked ones are dropped without telling anyone.
 */
export async function claimDuePublications(
  db: DbOrTx,
  now: Date,
): Promise<{ id: number; title: string; type: number; housingEstateId: number }[]> {
  return queryRows(
    db,
    sql`update announcement set scheduled_at = null
        where scheduled_at <= ${now.toISOString()}
        returning id, title, type, revoked, housing_estate_id as "housingEstateId"`,
  ).then((rows) =>
    (rows as { id: number; title: string; type: number; revoked: boolean; housingEstateId: number }[]).filter(
      (r) => !r.revoked,
    ),
  );
}
