import {
  ChannelType,
  ChatGroupType,
  ChatRecordType,
  type ChatPersonName,
  type ChatSystemLine,
  type UpstreamPush,
} from '@pm/shared';
import type { DbOrTx, Tx } from '../../db/open-database';
import { offsetOf } from '../../db/sql';
import { AppError } from '../../http/app-error';
import type { AuthedContext } from '../../http/request-context';
import { queuePush, withPushes } from '../message/push-outbox';
import { staffWithPermission } from '../realtime/recipients';
import { refreshPinyin } from './address-book.repository';
import * as repo from './chat.repository';
import type { GroupRow, StoredRecord } from './chat.repository';
import { pinyinKeys, pinyinQuery } from './pinyin';

/**
 * Instant messaging (SPEC §7): private chats (two persons), group chats and staff work groups.
 * Every call is scoped to the caller's estate and to groups the caller is a current member of;
 * a record gets the next gapless seq of its group (the group row is locked while it is taken).
 * Member changes, renames, dissolution and work orders made from a message are system lines
 * (type 10) in the conversation, pushed with their event so every open console shows them.
 */

export const chatUnreadTotal = repo.unreadTotal;
export { readUnreadTotal, unreadTotalSql, unreadTotalValues } from './chat.repository';

function inTransaction<T>(ctx: AuthedContext, work: (tx: Tx) => Promise<T>): Promise<T> {
  return withPushes(ctx.db, ctx.services.realtime, work, (err) =>
    ctx.log.error({ err }, 'chat push after commit failed'),
  );
}

/** The group when the caller is a current member of it in their estate; otherwise 404 (no hint it exists). */
async function myGroup(db: DbOrTx, ctx: AuthedContext, groupId: number, lock = false): Promise<GroupRow> {
  const g = await repo.memberGroup(db, ctx.tenant, groupId, ctx.caller.personId, lock);
  if (!g) throw AppError.notFound();
  return g;
}

/** Persons of the estate, each once (400 when any is not one of them). */
async function estatePersons(db: DbOrTx, ctx: AuthedContext, ids: number[]): Promise<ChatPersonName[]> {
  const found = await repo.estatePersons(db, ctx.tenant, ids);
  if (found.length !== new Set(ids).size) throw AppError.badRequest('errors.chatPersonUnknown');
  return found;
}

/**
 * Whom a resident may bring into a chat — a private chat, a new group, added members (issue 14;
 * docs/internal-contract.md): the staff of their estate who may chat (im:list; staff without it
 * cannot answer) and the people sharing one of their approved houses. Anyone else answers 404.
 */
async function assertResidentMayReach(tx: DbOrTx, ctx: AuthedContext, personIds: number[]): Promise<void> {
  if (ctx.caller.kind !== 'resident') return;
  const others = [...new Set(personIds)].filter((id) => id !== ctx.caller.personId);
  if (others.length === 0) return;
  const chatStaff = new Set(await staffWithPermission(tx, ctx.tenant.housingEstateId, 'im:list'));
  for (const id of others) {
    if (!chatStaff.has(id) && !(await repo.shareApprovedHouse(tx, ctx.caller.personId, id))) throw AppError.notFound();
  }
}

async function me(db: DbOrTx, ctx: AuthedContext): Promise<ChatPersonName> {
  return { personId: ctx.caller.personId, name: (await repo.personBrief(db, ctx.caller.personId)).name };
}

/** The push of one stored record: the live chat message of SPEC §3 plus the record's own fields. */
function recordPush(g: GroupRow, r: StoredRecord, channelType: number, fromAvatar: string | null): UpstreamPush {
  return {
    channelType,
    dataId: g.id,
    groupId: g.id,
    groupType: g.groupType,
    recordId: r.recordId,
    seq: r.seq,
    type: r.type,
    content: r.content,
    clientId: r.clientId,
    createdAt: r.createdAt,
    fromUser: { idUser: r.fromPersonId, userName: r.fromName },
    fromAvatar,
    group: { idGroup: g.id, groupName: g.name ?? '' },
  } as UpstreamPush;
}

/** Stores a system line and queues it to `to` under `channelType` (4, 5, 6, 3200, or 1/3 read). */
async function systemLine(
  tx: Tx,
  ctx: AuthedContext,
  g: GroupRow,
  line: ChatSystemLine,
  to: number[],
  channelType: number,
  extra: Record<string, unknown> = {},
): Promise<StoredRecord> {
  const r = await repo.insertRecord(tx, ctx.tenant, {
    groupId: g.id,
    fromPersonId: ctx.caller.personId,
    type: ChatRecordType.system,
    content: JSON.stringify(line),
    clientId: null,
  });
  const isMessage = channelType === ChannelType.privateChat || channelType === ChannelType.groupChat;
  queuePush(tx, [...new Set(to)], {
    ...recordPush(g, r, channelType, null),
    ...(isMessage ? { read: true } : {}),
    ...extra,
  } as UpstreamPush);
  return r;
}

export async function listGroups(
  ctx: AuthedContext,
  body: { page: number; limit: number; key?: string; groupType?: number; pinyin?: boolean },
) {
  const pinyinKey = body.pinyin ? pinyinQuery(body.key) : undefined;
  if (pinyinKey) await refreshPinyin(ctx.db, ctx.tenant);
  const { rows, total } = await repo.listConversations(
    ctx.db,
    ctx.tenant,
    ctx.caller.personId,
    { key: body.key || undefined, pinyinKey, groupType: body.groupType },
    body.limit,
    offsetOf(body.page, body.limit),
  );
  // Each row is its conversation's JSON (JsonBytes), written into the answer as it is.
  const list = rows as unknown as repo.ConversationRow[];
  return { list, total, page: body.page, limit: body.limit, totalPage: Math.ceil(total / body.limit) };
}

export async function groupInfo(ctx: AuthedContext, groupId: number) {
  const g = await myGroup(ctx.db, ctx, groupId);
  const members = await repo.groupMembers(ctx.db, groupId);
  const other = members.find((m) => m.personId !== ctx.caller.personId);
  return {
    groupId: g.id,
    groupType: g.groupType,
    groupName: g.groupType === ChatGroupType.private ? (other?.name ?? g.name ?? '') : (g.name ?? ''),
    isWorkGroup: g.isWorkGroup,
    ownerPersonId: g.ownerPersonId,
    lastSeq: g.lastSeq,
    members,
  };
}

export async function groupMembers(ctx: AuthedContext, groupId: number) {
  await myGroup(ctx.db, ctx, groupId);
  return repo.groupMembers(ctx.db, groupId);
}

/** A new group chat of the caller and `personIds`; every member is told (3200) with its first line. */
export async function createGroup(
  ctx: AuthedContext,
  body: { groupName: string; personIds: number[] },
  isWorkGroup = false,
) {
  const self = ctx.caller.personId;
  const others = [...new Set(body.personIds)].filter((p) => p !== self);
  if (others.length === 0) throw AppError.badRequest('errors.chatNeedsMembers');
  return inTransaction(ctx, async (tx) => {
    await assertResidentMayReach(tx, ctx, others);
    const persons = await estatePersons(tx, ctx, others);
    const g = await repo.insertGroup(tx, ctx.tenant, {
      groupType: ChatGroupType.group,
      name: body.groupName,
      namePinyin: pinyinKeys(body.groupName),
      ownerPersonId: self,
      isWorkGroup,
    });
    const members = await repo.insertMembers(tx, g, [self, ...others]);
    await systemLine(
      tx,
      ctx,
      g,
      { event: 'created', by: await me(tx, ctx), persons },
      members,
      ChannelType.createGroupChat,
      { groupName: body.groupName },
    );
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
    const g = await myGroup(tx, ctx, groupId, true);
    assertOwner(ctx, g);
    if (!g.isWorkGroup) throw AppError.badRequest('errors.chatNotWorkGroup');
    const wanted = new Set([...body.personIds, ctx.caller.personId]);
    const persons = await estatePersons(tx, ctx, [...wanted]);
    const before = await repo.currentMemberIds(tx, groupId);
    const removed = before.filter((p) => !wanted.has(p));
    const by = await me(tx, ctx);
    if (g.name !== body.groupName) {
      await repo.setGroupName(tx, groupId, body.groupName, pinyinKeys(body.groupName));
      g.name = body.groupName;
      await systemLine(tx, ctx, g, { event: 'renamed', by, groupName: body.groupName }, before, ChannelType.groupChat);
    }
    if (removed.length > 0) {
      await repo.markMembersGone(tx, groupId, removed);
      await systemLine(
        tx,
        ctx,
        g,
        { event: 'removed', by, persons: await repo.estatePersons(tx, ctx.tenant, removed) },
        before,
        ChannelType.removeMember,
        { personIds: removed },
      );
    }
    const added = await repo.insertMembers(
      tx,
      g,
      [...wanted].filter((p) => !before.includes(p)),
    );
    if (added.length > 0)
      await systemLine(
        tx,
        ctx,
        g,
        { event: 'added', by, persons: persons.filter((p) => added.includes(p.personId)) },
        await repo.currentMemberIds(tx, groupId),
        ChannelType.addMember,
        { personIds: added },
      );
    return { groupId };
  });
}

/** Only the owner renames, removes members or dissolves a group chat; a private chat has no name to change. */
function assertOwner(ctx: AuthedContext, g: GroupRow): void {
  if (g.groupType === ChatGroupType.private) throw AppError.badRequest('errors.chatPrivate');
  if (g.ownerPersonId !== ctx.caller.personId) throw AppError.forbidden('errors.chatNotOwner');
}

export async function renameGroup(ctx: AuthedContext, groupId: number, groupName: string) {
  await inTransaction(ctx, async (tx) => {
    const g = await myGroup(tx, ctx, groupId, true);
    assertOwner(ctx, g);
    if (g.name === groupName) return;
    await repo.setGroupName(tx, groupId, groupName, pinyinKeys(groupName));
    g.name = groupName;
    await systemLine(
      tx,
      ctx,
      g,
      { event: 'renamed', by: await me(tx, ctx), groupName },
      await repo.currentMemberIds(tx, groupId),
      ChannelType.groupChat,
    );
  });
}

/** SPEC §4 "exit and dissolve": the owner ends the group for everyone (event 6 with the last line). */
export async function dissolveGroup(ctx: AuthedContext, groupId: number) {
  await inTransaction(ctx, async (tx) => {
    const g = await myGroup(tx, ctx, groupId, true);
    assertOwner(ctx, g);
    const members = await repo.currentMemberIds(tx, groupId);
    await systemLine(tx, ctx, g, { event: 'dissolved', by: await me(tx, ctx) }, members, ChannelType.dissolveGroup);
    await repo.setGroupDismissed(tx, groupId);
  });
}

/** The caller leaves a group chat; an owner who leaves hands the group to the longest member, the last one out dissolves it. */
export async function quitGroup(ctx: AuthedContext, groupId: number) {
  const self = ctx.caller.personId;
  await inTransaction(ctx, async (tx) => {
    const g = await myGroup(tx, ctx, groupId, true);
    if (g.groupType === ChatGroupType.private) throw AppError.badRequest('errors.chatPrivate');
    const before = await repo.currentMemberIds(tx, groupId);
    await repo.markMembersGone(tx, groupId, [self]);
    const rest = before.filter((p) => p !== self);
    let newOwner: ChatPersonName | undefined;
    if (rest.length > 0 && g.ownerPersonId === self) {
      await repo.setGroupOwner(tx, groupId, rest[0]);
      [newOwner] = await repo.estatePersons(tx, ctx.tenant, [rest[0]]);
    }
    await systemLine(
      tx,
      ctx,
      g,
      { event: 'quit', by: await me(tx, ctx), ...(newOwner ? { newOwner } : {}) },
      before,
      ChannelType.removeMember,
      { personIds: [self], ...(newOwner ? { ownerPersonId: newOwner.personId } : {}) },
    );
    if (rest.length === 0) await repo.setGroupDismissed(tx, groupId);
  });
}

export async function addGroupMembers(ctx: AuthedContext, groupId: number, personIds: number[]) {
  await inTransaction(ctx, async (tx) => {
    const g = await myGroup(tx, ctx, groupId, true);
    if (g.groupType === ChatGroupType.private) throw AppError.badRequest('errors.chatPrivate');
    await assertResidentMayReach(tx, ctx, personIds);
    const persons = await estatePersons(tx, ctx, personIds);
    const added = await repo.insertMembers(tx, g, [...new Set(personIds)]);
    if (added.length > 0)
      await systemLine(
        tx,
        ctx,
        g,
        { event: 'added', by: await me(tx, ctx), persons: persons.filter((p) => added.includes(p.personId)) },
        await repo.currentMemberIds(tx, groupId),
        ChannelType.addMember,
        { personIds: added },
      );
  });
}

/** The owner removes members (not themselves: that is leaving); they get event 5 with the line too. */
export async function removeGroupMembers(ctx: AuthedContext, groupId: number, personIds: number[]) {
  await inTransaction(ctx, async (tx) => {
    const g = await myGroup(tx, ctx, groupId, true);
    assertOwner(ctx, g);
    const before = await repo.currentMemberIds(tx, groupId);
    const removed = [...new Set(personIds)].filter((p) => p !== ctx.caller.personId && before.includes(p));
    if (removed.length === 0) throw AppError.badRequest('errors.chatNotMembers');
    await repo.markMembersGone(tx, groupId, removed);
    await systemLine(
      tx,
      ctx,
      g,
      { event: 'removed', by: await me(tx, ctx), persons: await repo.estatePersons(tx, ctx.tenant, removed) },
      before,
      ChannelType.removeMember,
      { personIds: removed },
    );
  });
}

export async function listRecords(
  ctx: AuthedContext,
  body: { groupId: number; page: number; limit: number; order: 'asc' | 'desc'; seq?: number },
) {
  await myGroup(ctx.db, ctx, body.groupId);
  const { rows, total } = await repo.listRecords(ctx.db, {
    groupId: body.groupId,
    order: body.order,
    seq: body.seq,
    limit: body.limit,
    offset: offsetOf(body.page, body.limit),
  });
  return { list: rows, total, totalPage: Math.ceil(total / body.limit) };
}

/** An upload path as a message names it: the api's own path, with or without the gateway's /api. */
const UPLOAD_PATH = /^(?:\/api)?(\/upload\/files\/[a-z][a-z0-9_-]{0,31}\/[A-Za-z0-9/._-]+)$/;
const MAX_VOICE_SECONDS = 3600;

/**
 * The stored content of a message by type: text as written; a picture, voice or file must be an
 * upload of the sender (whose bytes the upload service checked), of the right category.
 */
async function messageContent(ctx: AuthedContext, type: number, content: string): Promise<string> {
  if (type === ChatRecordType.text) return content;
  const q = content.indexOf('?');
  const path = UPLOAD_PATH.exec(q < 0 ? content : content.slice(0, q))?.[1];
  const query = new URLSearchParams(q < 0 ? '' : content.slice(q + 1));
  const upload = path ? await repo.ownUpload(ctx.db, ctx.caller.personId, path) : null;
  if (!path || !upload) throw AppError.badRequest('im.errors.uploadNotYours');
  if (type === ChatRecordType.picture) {
    if (upload.contentType !== 'image') throw AppError.badRequest('im.errors.notPicture');
    return path;
  }
  if (type === ChatRecordType.voice) {
    const seconds = Number(q < 0 ? NaN : content.slice(q + 1));
    if (!upload.contentType.startsWith('audio/')) throw AppError.badRequest('im.errors.notVoice');
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_VOICE_SECONDS)
      throw AppError.badRequest('im.errors.voiceDuration', { max: MAX_VOICE_SECONDS });
    return `${path}?${seconds}`;
  }
  const name =
    (query.get('name') ?? '')
      .replace(/[^\p{L}\p{N} ._()-]/gu, '')
      .trim()
      .slice(0, 120) || 'file';
  return `${path}?name=${encodeURIComponent(name)}&size=${upload.size}`;
}

/**
 * A new record: the next seq of the group, a push to every member (1 private, 3 group); the
 * sender's own copy says read, so no counter rises, and whatever the sender had unread there is
 * read now (event 3300). With a clientId the call is idempotent: the record already stored under
 * it in this group is answered again, nothing is stored or pushed twice.
 */
export async function saveRecord(
  ctx: AuthedContext,
  body: { groupId: number; content: string; type: number; clientId?: string },
): Promise<StoredRecord> {
  const self = ctx.caller.personId;
  const content = await messageContent(ctx, body.type, body.content);
  return inTransaction(ctx, async (tx) => {
    const g = await myGroup(tx, ctx, body.groupId, true);
    if (body.clientId) {
      const stored = await repo.recordByClientId(tx, g.id, body.clientId);
      if (stored && stored.fromPersonId === self) return stored;
      if (stored) throw AppError.conflict('im.errors.clientIdTaken');
    }
    const r = await repo.insertRecord(tx, ctx.tenant, {
      groupId: g.id,
      fromPersonId: self,
      type: body.type,
      content,
      clientId: body.clientId ?? null,
    });
    const { cleared } = await repo.markRead(tx, g.id, self);
    const members = await repo.currentMemberIds(tx, g.id);
    const avatar = r.fromImages[0]?.url ?? null;
    const channel = g.groupType === ChatGroupType.private ? ChannelType.privateChat : ChannelType.groupChat;
    // For a private chat the recipient's conversation is named after the sender.
    const named = { ...g, name: g.groupType === ChatGroupType.private ? r.fromName : g.name };
    queuePush(
      tx,
      members.filter((p) => p !== self),
      recordPush(named, r, channel, avatar),
    );
    queuePush(tx, [self], { ...recordPush(named, r, channel, avatar), read: true } as UpstreamPush);
    // The record just sent was never unread for the sender; what was unread before it is read now.
    if (cleared > 1) queuePush(tx, [self], readPush(g.id, r.seq, cleared - 1));
    const { messageCount: _count, ...stored } = r;
    return stored;
  });
}

function readPush(groupId: number, readSeq: number, cleared: number): UpstreamPush {
  return { channelType: ChannelType.chatRead, dataId: groupId, groupId, readSeq, cleared } as UpstreamPush;
}

/** The caller has read the group up to its newest record; every tab of theirs clears it (3300). */
export async function clearUnread(ctx: AuthedContext, groupId: number) {
  const self = ctx.caller.personId;
  await inTransaction(ctx, async (tx) => {
    await myGroup(tx, ctx, groupId);
    const { cleared, readSeq } = await repo.markRead(tx, groupId, self);
    if (cleared > 0) queuePush(tx, [self], readPush(groupId, readSeq, cleared));
  });
}

/** The private chat of the caller (a) and b, created on first use (both told, 3100). */
export async function privateChat(ctx: AuthedContext, a: number, b: number) {
  if (a !== ctx.caller.personId) throw AppError.badRequest('errors.notYourself');
  if (a === b) throw AppError.badRequest('errors.chatNeedsMembers');
  return inTransaction(ctx, async (tx) => {
    await repo.lockPair(tx, a, b);
    const found = await repo.findPrivateChat(tx, ctx.tenant, a, b);
    if (found) return { groupId: found, created: false };
    // A resident cannot list the estate's people by trying ids: whoever they have no reason to
    // talk to looks exactly like nobody (404), and is not told.
    await assertResidentMayReach(tx, ctx, [b]);
    const [other] = await estatePersons(tx, ctx, [b]);
    const g = await repo.insertGroup(tx, ctx.tenant, {
      groupType: ChatGroupType.private,
      name: other.name,
      namePinyin: null,
      ownerPersonId: a,
      peerPersonId: b,
      isWorkGroup: false,
    });
    await repo.insertMembers(tx, g, [a, b]);
    queuePush(tx, [a, b], { channelType: ChannelType.createPrivateChat, dataId: g.id, groupId: g.id, groupType: 1 });
    return { groupId: g.id, created: true };
  });
}

/** For the chat-to-work use case: the group (member check) and the record it names. */
export async function memberRecord(ctx: AuthedContext, groupId: number, seq: number) {
  const g = await myGroup(ctx.db, ctx, groupId);
  const r = await repo.recordBySeq(ctx.db, groupId, seq);
  if (!r) throw AppError.notFound();
  return { group: g, record: r };
}

/** Adds the "made a complaint / work order from this message" line to the conversation (channel 1/3, read). */
export async function addWorkLine(
  tx: Tx,
  ctx: AuthedContext,
  groupId: number,
  work: { kind: 'complaint' | 'eventOrder'; id: number; code: string; seq: number },
): Promise<void> {
  const g = await myGroup(tx, ctx, groupId, true);
  await systemLine(
    tx,
    ctx,
    g,
    { event: 'work', by: await me(tx, ctx), ...work },
    await repo.currentMemberIds(tx, groupId),
    g.groupType === ChatGroupType.private ? ChannelType.privateChat : ChannelType.groupChat,
  );
}
