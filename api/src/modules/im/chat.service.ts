import { sql } from 'drizzle-orm';
import { ChannelType, ChatGroupType, JoinStatus } from '@pm/shared';
import type { DbOrTx, Tx } from '../../db/open-database';
import { likePattern, offsetOf, queryRows } from '../../db/sql';
import { AppError } from '../../http/app-error';
import type { AuthedContext, TenantScope } from '../../http/request-context';
import { queuePush, withPushes } from '../message/push-outbox';
import { staffWithPermission } from '../realtime/recipients';
import { chatGroupMembers } from './chat.recipients';

// The sidebar's chat unread total is the repository's sum as it stands.
export { chatUnreadTotal } from './chat-unread.repository';

/**
 * Instant messaging (SPEC §7): private chats (two persons), group chats and staff work groups.
 * Every call is scoped to the caller's estate and to groups the caller is a current member of;
 * a record gets the next gapless seq of its group (the group row is locked while it is taken).
 */

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string).toISOString());
const images = (v: unknown) => ((typeof v === 'string' ? JSON.parse(v) : v) ?? []) as { url: string }[];

function inTransaction<T>(ctx: AuthedContext, work: (tx: Tx) => Promise<T>): Promise<T> {
  return withPushes(ctx.db, ctx.services.realtime, work, (err) =>
    ctx.log.error({ err }, 'chat push after commit failed'),
  );
}

interface GroupRow {
  id: number;
  group_type: number;
  name: string | null;
  owner_person_id: number;
  is_work_group: boolean;
  last_seq: number;
}

/** The group when the caller is a current member of it in their estate; otherwise 404 (no hint it exists). */
async function memberGroup(
  db: DbOrTx,
  tenant: TenantScope,
  groupId: number,
  personId: number,
  lock = false,
): Promise<GroupRow> {
  const [g] = await queryRows<GroupRow>(
    db,
    sql`select g.id, g.group_type, g.name, g.owner_person_id, g.is_work_group, g.last_seq
        from im_group g join im_group_member m on m.group_id = g.id and m.person_id = ${personId} and m.quit_at is null
        where g.id = ${groupId} and g.company_id = ${tenant.companyId} and g.housing_estate_id = ${tenant.housingEstateId}
          and not g.dismissed
        ${lock ? sql`for update of g` : sql``}`,
  );
  if (!g) throw AppError.notFound();
  return g;
}

/** The persons of the estate among `ids` (answers 400 when any is not one of them). */
async function estatePersons(db: DbOrTx, tenant: TenantScope, ids: number[]): Promise<{ id: number; name: string }[]> {
  const unique = [...new Set(ids)];
  const rows = await queryRows<{ id: number; name: string }>(
    db,
    sql`select id, name from person where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
        and id in (${sql.join(
          unique.map((i) => sql`${i}`),
          sql`, `,
        )})`,
  );
  if (rows.length !== unique.length) throw AppError.badRequest('errors.chatPersonUnknown');
  return rows;
}

/**
 * Whom a resident may bring into a chat — a private chat, a new group, added members (issue 14;
 * docs/internal-contract.md): the staff of their estate who may chat (im:list; staff without it
 * cannot answer) and the people sharing one of their approved houses.
 */
async function residentMayReach(tx: DbOrTx, tenant: TenantScope, residentId: number, otherId: number) {
  if ((await staffWithPermission(tx, tenant.housingEstateId, 'im:list')).includes(otherId)) return true;
  const rows = await queryRows<{ one: number }>(
    tx,
    sql`select 1 as one from person_house mine join person_house theirs
          on theirs.house_type = mine.house_type
          and (theirs.unit_id = mine.unit_id or theirs.car_space_id = mine.car_space_id or theirs.shop_id = mine.shop_id)
        where mine.person_id = ${residentId} and mine.status = ${JoinStatus.approved}
          and theirs.person_id = ${otherId} and theirs.status = ${JoinStatus.approved}
        limit 1`,
  );
  return rows.length > 0;
}

/** A resident who names someone outside their reach (a group's members too) gets 404, as for nobody. */
async function assertResidentMayReach(tx: DbOrTx, ctx: AuthedContext, personIds: number[]): Promise<void> {
  if (ctx.caller.kind !== 'resident') return;
  for (const id of new Set(personIds)) {
    if (id !== ctx.caller.personId && !(await residentMayReach(tx, ctx.tenant, ctx.caller.personId, id)))
      throw AppError.notFound();
  }
}

async function addMembers(tx: Tx, groupId: number, personIds: number[], readSeq: number): Promise<number[]> {
  if (personIds.length === 0) return [];
  // A person who quit earlier comes back; a current member stays as they are.
  const rows = await queryRows<{ person_id: number }>(
    tx,
    sql`insert into im_group_member (group_id, person_id, read_seq, unread)
        values ${sql.join(
          personIds.map((p) => sql`(${groupId}, ${p}, ${readSeq}, 0)`),
          sql`, `,
        )}
        on conflict (group_id, person_id) do update set quit_at = null, read_seq = excluded.read_seq, unread = 0, joined_at = now()
          where im_group_member.quit_at is not null
        returning person_id`,
  );
  return rows.map((r) => r.person_id);
}

export async function listGroups(
  ctx: AuthedContext,
  body: { page: number; limit: number; key?: string; groupType?: number },
) {
  const me = ctx.caller.personId;
  const filters = [sql`true`];
  if (body.groupType) filters.push(sql`g.group_type = ${body.groupType}`);
  if (body.key) {
    const like = likePattern(body.key);
    filters.push(sql`(g.name ilike ${like} or exists (select 1 from im_group_member om join person op on op.id = om.person_id
      where om.group_id = g.id and om.quit_at is null and op.name ilike ${like}))`);
  }
  const where = sql`m.person_id = ${me} and m.quit_at is null and not g.dismissed
      and g.company_id = ${ctx.tenant.companyId} and g.housing_estate_id = ${ctx.tenant.housingEstateId} and ${sql.join(filters, sql` and `)}`;
  const [{ n }] = await queryRows<{ n: number }>(
    ctx.db,
    sql`select count(*)::int as n from im_group g join im_group_member m on m.group_id = g.id where ${where}`,
  );
  const rows = await queryRows<
    GroupRow & {
      unread: number;
      updated_at: unknown;
      r_seq: number | null;
      r_type: number;
      r_content: string;
      r_from: number;
      r_from_name: string;
      r_at: unknown;
      members: unknown;
    }
  >(
    ctx.db,
    sql`select g.id, g.group_type, g.name, g.owner_person_id, g.is_work_group, g.last_seq, m.unread, g.updated_at,
          r.seq as r_seq, r.type as r_type, r.content as r_content, r.from_person_id as r_from, rp.name as r_from_name, r.created_at as r_at,
          (select coalesce(json_agg(json_build_object('personId', p.id, 'name', p.name, 'images', p.images) order by gm.joined_at, p.id), '[]')
             from im_group_member gm join person p on p.id = gm.person_id where gm.group_id = g.id and gm.quit_at is null) as members
        from im_group g join im_group_member m on m.group_id = g.id
          left join im_chat_record r on r.group_id = g.id and r.seq = g.last_seq
          left join person rp on rp.id = r.from_person_id
        where ${where}
        order by coalesce(g.updated_at, g.created_at) desc, g.id desc
        limit ${body.limit} offset ${offsetOf(body.page, body.limit)}`,
  );
  const list = rows.map((g) => {
    const members = (typeof g.members === 'string' ? JSON.parse(g.members) : g.members) as {
      personId: number;
      name: string;
      images: { url: string }[];
    }[];
    const other = members.find((p) => p.personId !== me);
    return {
      groupId: g.id,
      groupType: g.group_type,
      groupName: g.group_type === ChatGroupType.private ? (other?.name ?? g.name ?? '') : (g.name ?? ''),
      isWorkGroup: g.is_work_group,
      ownerPersonId: g.owner_person_id,
      unread: g.unread,
      lastSeq: g.last_seq,
      lastRecord:
        g.r_seq === null
          ? null
          : {
              seq: g.r_seq,
              type: g.r_type,
              content: g.r_content,
              fromPersonId: g.r_from,
              fromName: g.r_from_name,
              createdAt: iso(g.r_at) as string,
            },
      members,
      updatedAt: iso(g.updated_at),
    };
  });
  return { list, total: n, page: body.page, limit: body.limit, totalPage: Math.ceil(n / body.limit) };
}

export async function groupInfo(ctx: AuthedContext, groupId: number) {
  const g = await memberGroup(ctx.db, ctx.tenant, groupId, ctx.caller.personId);
  return {
    groupId: g.id,
    groupType: g.group_type,
    groupName: g.name ?? '',
    isWorkGroup: g.is_work_group,
    ownerPersonId: g.owner_person_id,
    lastSeq: g.last_seq,
    members: await groupMembers(ctx, groupId),
  };
}

export async function groupMembers(ctx: AuthedContext, groupId: number) {
  await memberGroup(ctx.db, ctx.tenant, groupId, ctx.caller.personId);
  const rows = await queryRows<{ id: number; name: string; images: unknown }>(
    ctx.db,
    sql`select p.id, p.name, p.images from im_group_member m join person p on p.id = m.person_id
        where m.group_id = ${groupId} and m.quit_at is null order by m.joined_at, p.id`,
  );
  return rows.map((r) => ({ personId: r.id, name: r.name, images: images(r.images) }));
}

/** A new group chat of the caller and `personIds`; every member is told (3200). */
export async function createGroup(
  ctx: AuthedContext,
  body: { groupName: string; personIds: number[] },
  isWorkGroup = false,
) {
  const me = ctx.caller.personId;
  const others = body.personIds.filter((p) => p !== me);
  if (others.length === 0) throw AppError.badRequest('errors.chatNeedsMembers');
  return inTransaction(ctx, async (tx) => {
    await assertResidentMayReach(tx, ctx, others);
    await estatePersons(tx, ctx.tenant, others);
    const [g] = await queryRows<{ id: number }>(
      tx,
      sql`insert into im_group (company_id, housing_estate_id, group_type, name, owner_person_id, is_work_group, updated_at)
          values (${ctx.tenant.companyId}, ${ctx.tenant.housingEstateId}, ${ChatGroupType.group}, ${body.groupName}, ${me}, ${isWorkGroup}, now())
          returning id`,
    );
    const members = await addMembers(tx, g.id, [me, ...new Set(others)], 0);
    queuePush(tx, members, {
      channelType: ChannelType.createGroupChat,
      dataId: g.id,
      groupId: g.id,
      groupName: body.groupName,
    });
    return { groupId: g.id };
  });
}

/** A staff work group: created, or its name and members set (members added get 4, removed 5). */
export async function saveWorkGroup(
  ctx: AuthedContext,
  body: { groupId?: number; groupName: string; personIds: number[] },
) {
  if (!body.groupId) return createGroup(ctx, body, true);
  const groupId = body.groupId;
  return inTransaction(ctx, async (tx) => {
    const g = await memberGroup(tx, ctx.tenant, groupId, ctx.caller.personId, true);
    if (!g.is_work_group) throw AppError.badRequest('errors.chatNotWorkGroup');
    const wanted = new Set([ctx.caller.personId, ...body.personIds]);
    await estatePersons(tx, ctx.tenant, [...wanted]);
    const before = await chatGroupMembers(tx, groupId);
    const removed = before.filter((p) => !wanted.has(p));
    if (removed.length > 0) {
      await tx.execute(
        sql`update im_group_member set quit_at = now(), unread = 0 where group_id = ${groupId} and person_id in (${sql.join(
          removed.map((p) => sql`${p}`),
          sql`, `,
        )})`,
      );
    }
    const added = await addMembers(
      tx,
      groupId,
      [...wanted].filter((p) => !before.includes(p)),
      g.last_seq,
    );
    await tx.execute(sql`update im_group set name = ${body.groupName}, updated_at = now() where id = ${groupId}`);
    if (added.length > 0)
      queuePush(tx, [...before.filter((p) => !removed.includes(p)), ...added], {
        channelType: ChannelType.addMember,
        dataId: groupId,
        groupId,
        personIds: added,
      });
    if (removed.length > 0)
      queuePush(tx, [...before], {
        channelType: ChannelType.removeMember,
        dataId: groupId,
        groupId,
        personIds: removed,
      });
    return { groupId };
  });
}

/** Only the owner renames or dissolves a group chat; a private chat has no name to change. */
function assertOwner(ctx: AuthedContext, g: GroupRow): void {
  if (g.group_type === ChatGroupType.private) throw AppError.badRequest('errors.chatPrivate');
  if (g.owner_person_id !== ctx.caller.personId) throw AppError.forbidden('errors.chatNotOwner');
}

export async function renameGroup(ctx: AuthedContext, groupId: number, groupName: string) {
  await inTransaction(ctx, async (tx) => {
    const g = await memberGroup(tx, ctx.tenant, groupId, ctx.caller.personId, true);
    assertOwner(ctx, g);
    await tx.execute(sql`update im_group set name = ${groupName}, updated_at = now() where id = ${groupId}`);
  });
}

export async function dissolveGroup(ctx: AuthedContext, groupId: number) {
  await inTransaction(ctx, async (tx) => {
    const g = await memberGroup(tx, ctx.tenant, groupId, ctx.caller.personId, true);
    assertOwner(ctx, g);
    const members = await chatGroupMembers(tx, groupId);
    await tx.execute(sql`update im_group set dismissed = true, updated_at = now() where id = ${groupId}`);
    await tx.execute(sql`update im_group_member set unread = 0 where group_id = ${groupId}`);
    queuePush(tx, members, { channelType: ChannelType.dissolveGroup, dataId: groupId, groupId });
  });
}

/** The caller leaves a group chat; an owner who leaves hands the group to the longest member, the last one out dissolves it. */
export async function quitGroup(ctx: AuthedContext, groupId: number) {
  const me = ctx.caller.personId;
  await inTransaction(ctx, async (tx) => {
    const g = await memberGroup(tx, ctx.tenant, groupId, me, true);
    if (g.group_type === ChatGroupType.private) throw AppError.badRequest('errors.chatPrivate');
    await tx.execute(
      sql`update im_group_member set quit_at = now(), unread = 0 where group_id = ${groupId} and person_id = ${me}`,
    );
    const rest = await queryRows<{ person_id: number }>(
      tx,
      sql`select person_id from im_group_member where group_id = ${groupId} and quit_at is null order by joined_at, person_id`,
    );
    if (rest.length === 0)
      await tx.execute(sql`update im_group set dismissed = true, updated_at = now() where id = ${groupId}`);
    else if (g.owner_person_id === me)
      await tx.execute(sql`update im_group set owner_person_id = ${rest[0].person_id} where id = ${groupId}`);
    queuePush(tx, [me, ...rest.map((r) => r.person_id)], {
      channelType: ChannelType.removeMember,
      dataId: groupId,
      groupId,
      personIds: [me],
    });
  });
}

export async function addGroupMembers(ctx: AuthedContext, groupId: number, personIds: number[]) {
  await inTransaction(ctx, async (tx) => {
    const g = await memberGroup(tx, ctx.tenant, groupId, ctx.caller.personId, true);
    if (g.group_type === ChatGroupType.private) throw AppError.badRequest('errors.chatPrivate');
    await assertResidentMayReach(tx, ctx, personIds);
    await estatePersons(tx, ctx.tenant, personIds);
    const added = await addMembers(tx, groupId, [...new Set(personIds)], g.last_seq);
    if (added.length > 0)
      queuePush(tx, await chatGroupMembers(tx, groupId), {
        channelType: ChannelType.addMember,
        dataId: groupId,
        groupId,
        personIds: added,
      });
  });
}

export async function listRecords(
  ctx: AuthedContext,
  body: { groupId: number; page: number; limit: number; order: 'asc' | 'desc'; seq?: number },
) {
  await memberGroup(ctx.db, ctx.tenant, body.groupId, ctx.caller.personId);
  const desc = body.order === 'desc';
  const from = body.seq === undefined ? sql`true` : desc ? sql`r.seq < ${body.seq}` : sql`r.seq > ${body.seq}`;
  const [{ n }] = await queryRows<{ n: number }>(
    ctx.db,
    sql`select count(*)::int as n from im_chat_record r where r.group_id = ${body.groupId}`,
  );
  const rows = await queryRows<{
    id: number;
    seq: number;
    type: number;
    content: string;
    from_person_id: number;
    name: string;
    images: unknown;
    created_at: unknown;
  }>(
    ctx.db,
    sql`select r.id, r.seq, r.type, r.content, r.from_person_id, p.name, p.images, r.created_at
        from im_chat_record r join person p on p.id = r.from_person_id
        where r.group_id = ${body.groupId} and ${from}
        order by r.seq ${desc ? sql`desc` : sql`asc`}
        limit ${body.limit} offset ${offsetOf(body.page, body.limit)}`,
  );
  const list = rows.map((r) => ({
    recordId: r.id,
    groupId: body.groupId,
    seq: r.seq,
    type: r.type,
    content: r.content,
    fromPersonId: r.from_person_id,
    fromName: r.name,
    fromImages: images(r.images),
    createdAt: iso(r.created_at) as string,
  }));
  return { list, total: n, totalPage: Math.ceil(n / body.limit) };
}

/**
 * A new record: the next seq of the group, unread +1 for every other member, and a push to
 * every member (1 private, 3 group); the sender's own copy says read, so no counter rises.
 */
export async function saveRecord(ctx: AuthedContext, body: { groupId: number; content: string; type: number }) {
  const me = ctx.caller.personId;
  return inTransaction(ctx, async (tx) => {
    const g = await memberGroup(tx, ctx.tenant, body.groupId, me, true);
    const [{ seq }] = await queryRows<{ seq: number }>(
      tx,
      sql`update im_group set last_seq = last_seq + 1, updated_at = now() where id = ${g.id} returning last_seq as seq`,
    );
    const [rec] = await queryRows<{ id: number; created_at: unknown }>(
      tx,
      sql`insert into im_chat_record (company_id, housing_estate_id, group_id, seq, from_person_id, type, content)
          values (${ctx.tenant.companyId}, ${ctx.tenant.housingEstateId}, ${g.id}, ${seq}, ${me}, ${body.type}, ${body.content})
          returning id, created_at`,
    );
    await tx.execute(
      sql`update im_group_member set unread = unread + 1 where group_id = ${g.id} and quit_at is null and person_id <> ${me}`,
    );
    await tx.execute(
      sql`update im_group_member set read_seq = ${seq}, unread = 0 where group_id = ${g.id} and person_id = ${me}`,
    );
    const [sender] = await queryRows<{ name: string }>(tx, sql`select name from person where id = ${me}`);
    const members = await chatGroupMembers(tx, g.id);
    const message = {
      channelType: g.group_type === ChatGroupType.private ? ChannelType.privateChat : ChannelType.groupChat,
      dataId: g.id,
      groupId: g.id,
      seq,
      type: body.type,
      content: body.content,
      fromUser: { idUser: me, userName: sender.name },
      // For a private chat the recipient's conversation is named after the sender.
      group: { idGroup: g.id, groupName: g.group_type === ChatGroupType.private ? sender.name : (g.name ?? '') },
    };
    const others = members.filter((p) => p !== me);
    queuePush(tx, others, message);
    queuePush(tx, [me], { ...message, read: true });
    return { recordId: rec.id, groupId: g.id, seq, createdAt: iso(rec.created_at) as string };
  });
}

/** The caller has read the group up to its newest record. */
export async function clearUnread(ctx: AuthedContext, groupId: number) {
  const me = ctx.caller.personId;
  await inTransaction(ctx, async (tx) => {
    const g = await memberGroup(tx, ctx.tenant, groupId, me);
    const [row] = await queryRows<{ cleared: number }>(
      tx,
      sql`update im_group_member set unread = 0, read_seq = ${g.last_seq}
          from (select group_id, person_id, unread from im_group_member
                where group_id = ${groupId} and person_id = ${me} for update) old
          where im_group_member.group_id = old.group_id and im_group_member.person_id = old.person_id
          returning old.unread as cleared`,
    );
    // The caller's tabs update their chat badge through the live counters.
    const cleared = Number(row?.cleared ?? 0);
    if (cleared > 0) queuePush(tx, [me], { channelType: ChannelType.countersChanged, chatUnread: -cleared });
  });
}

/** The private chat of the caller (a) and b, created on first use (both told, 3100). */
export async function privateChat(ctx: AuthedContext, a: number, b: number) {
  if (a !== ctx.caller.personId) throw AppError.badRequest('errors.notYourself');
  if (a === b) throw AppError.badRequest('errors.chatNeedsMembers');
  return inTransaction(ctx, async (tx) => {
    // One private chat per pair, even when both open it at once.
    await tx.execute(sql`select pg_advisory_xact_lock(${Math.min(a, b)}, ${Math.max(a, b)})`);
    const [found] = await queryRows<{ id: number }>(
      tx,
      sql`select g.id from im_group g
          join im_group_member x on x.group_id = g.id and x.person_id = ${a}
          join im_group_member y on y.group_id = g.id and y.person_id = ${b}
          where g.group_type = ${ChatGroupType.private} and not g.dismissed
            and g.company_id = ${ctx.tenant.companyId} and g.housing_estate_id = ${ctx.tenant.housingEstateId}
          limit 1`,
    );
    if (found) return { groupId: found.id, created: false };
    // A resident cannot list the estate's people by trying ids: whoever they have no reason to
    // talk to looks exactly like nobody (404), and is not told.
    await assertResidentMayReach(tx, ctx, [b]);
    const [other] = await estatePersons(tx, ctx.tenant, [b]);
    const [g] = await queryRows<{ id: number }>(
      tx,
      sql`insert into im_group (company_id, housing_estate_id, group_type, name, owner_person_id, updated_at)
          values (${ctx.tenant.companyId}, ${ctx.tenant.housingEstateId}, ${ChatGroupType.private}, ${other.name}, ${a}, now()) returning id`,
    );
    await addMembers(tx, g.id, [a, b], 0);
    queuePush(tx, [a, b], { channelType: ChannelType.createPrivateChat, dataId: g.id, groupId: g.id });
    return { groupId: g.id, created: true };
  });
}
