// Instant messaging (SPEC §7 "Instant messaging", §3 "Chat"): groups, members and chat records.
// Staff and residents use the same calls with their own token (DESIGN §5).
import { z } from 'zod';
import { defineEndpoints } from './endpoint';
import {
  IdListSchema,
  IdParamsSchema,
  IdSchema,
  intSchema,
  KeywordSchema,
  listPageSchema,
  PageBodySchema,
  PersonImageSchema,
} from './common';

/** Record types: 1 text, 2 picture, 4 voice ("<path>?<seconds>"), 5 file. */
export const ChatRecordTypeSchema = z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(5)]);
const groupName = z.string().trim().min(1).max(50);

/** POST /im/disgroup/list: the caller's groups, newest activity first; key filters on group or member name. */
export const ChatGroupListSchema = PageBodySchema.extend({
  key: KeywordSchema,
  groupType: intSchema(1, 2).optional(),
});

export const ChatPersonSchema = z.object({
  personId: z.number(),
  name: z.string(),
  images: z.array(PersonImageSchema),
});
export const ChatLastRecordSchema = z.object({
  seq: z.number(),
  type: z.number(),
  content: z.string(),
  fromPersonId: z.number(),
  fromName: z.string(),
  createdAt: z.string(),
});
export const ChatGroupRowSchema = z.object({
  groupId: z.number(),
  groupType: z.number(),
  /** The group's name; for a private chat the other person's name. */
  groupName: z.string(),
  isWorkGroup: z.boolean(),
  ownerPersonId: z.number(),
  unread: z.number(),
  lastSeq: z.number(),
  lastRecord: ChatLastRecordSchema.nullable(),
  members: z.array(ChatPersonSchema),
  updatedAt: z.string().nullable(),
});

/** GET /im/disgroup/info/{id}: one chat the caller is in, with its members. */
export const ChatGroupInfoSchema = ChatGroupRowSchema.pick({
  groupId: true,
  groupType: true,
  groupName: true,
  isWorkGroup: true,
  ownerPersonId: true,
  lastSeq: true,
  members: true,
});

/** POST /im/disgroup/chatgroupperson: a group chat of the caller and these persons. */
export const ChatGroupCreateSchema = z.object({ groupName, personIds: IdListSchema.max(200) });
/** POST /im/disgroup/save/work/group/member: creates (no groupId) or sets the members of a staff work group. */
export const WorkGroupSaveSchema = z.object({
  groupId: IdSchema.optional(),
  groupName,
  personIds: IdListSchema.max(500),
});
/** POST /im/disgroup/updat/group/name/{groupId} */
export const ChatGroupRenameSchema = z.object({ groupName });
export const GroupIdParamsSchema = z.object({ groupId: IdSchema });
/** POST /im/disgroupmem/save: adds members to a group chat. */
export const ChatMembersAddSchema = z.object({ groupId: IdSchema, personIds: IdListSchema.max(200) });

/**
 * POST /im/chatrecord/list (SPEC §7): order desc pages back from `seq` (older, exclusive), order
 * asc pages forward after `seq` (newer, exclusive); without seq, desc starts at the newest and
 * asc at the oldest. `sidx` and `version` are accepted and ignored (always by seq).
 */
export const ChatRecordListSchema = z.object({
  groupId: IdSchema,
  page: intSchema(1, 100_000).default(1),
  limit: intSchema(1, 100).default(10),
  order: z.enum(['asc', 'desc']).default('desc'),
  seq: intSchema(0, 2_147_483_647).optional(),
  sidx: z.string().max(20).optional(),
  version: z.union([z.string().max(20), z.number()]).optional(),
});
export const ChatRecordSchema = z.object({
  recordId: z.number(),
  groupId: z.number(),
  seq: z.number(),
  type: z.number(),
  content: z.string(),
  fromPersonId: z.number(),
  fromName: z.string(),
  fromImages: z.array(PersonImageSchema),
  createdAt: z.string(),
});
export const ChatRecordPageSchema = z.object({
  list: z.array(ChatRecordSchema),
  total: z.number(),
  totalPage: z.number(),
});

/** POST /im/chatrecord/save */
export const ChatRecordSaveSchema = z.object({
  groupId: IdSchema,
  content: z.string().trim().min(1).max(5000),
  type: ChatRecordTypeSchema.default(1),
});
/** GET /im/chatrecord/delete/unread?groupId= */
export const ChatUnreadQuerySchema = z.object({ groupId: IdSchema });
/** GET /im/chatrecord/check/chat/{a}/{b}: the private chat of persons a (the caller) and b, created if new. */
export const PrivateChatParamsSchema = z.object({ a: IdSchema, b: IdSchema });
export const PrivateChatAnswerSchema = z.object({ groupId: z.number(), created: z.boolean() });

export const chatEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /im/disgroup/list': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary:
      "The caller's chats (private and group), newest activity first, with unread count, last record and members; key filters on group or member name",
    body: ChatGroupListSchema,
    response: listPageSchema(ChatGroupRowSchema),
  },
  'GET /im/disgroup/info/{id}': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary: 'One chat the caller is in, with its members',
    params: IdParamsSchema,
    response: ChatGroupInfoSchema,
  },
  'POST /im/disgroup/chatgroupperson': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary: 'Creates a group chat of the caller and personIds (persons of the estate); every member gets event 3200',
    body: ChatGroupCreateSchema,
    response: z.object({ groupId: z.number() }),
  },
  'POST /im/disgroup/save/work/group/member': {
    permission: 'im:list',
    summary:
      'Creates a staff work group (no groupId) or sets its name and members; added members get event 4, removed ones 5',
    body: WorkGroupSaveSchema,
    response: z.object({ groupId: z.number() }),
  },
  'POST /im/disgroup/updat/group/name/{groupId}': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary: 'Renames a group chat (owner only; the path keeps SPEC\'s spelling "updat")',
    params: GroupIdParamsSchema,
    body: ChatGroupRenameSchema,
    response: z.null(),
  },
  'GET /im/disgroup/dismiss/{id}': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary: 'Dissolves a group chat (owner only); every member gets event 6',
    params: IdParamsSchema,
    response: z.null(),
  },
  'POST /im/disgroupmem/list/{id}': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary: 'Current members of a chat the caller is in',
    params: IdParamsSchema,
    response: z.array(ChatPersonSchema),
  },
  'POST /im/disgroupmem/quit/disgroup/{id}': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary:
      'The caller leaves a group chat (event 5); an owner hands it to the longest member, the last one out dissolves it',
    params: IdParamsSchema,
    response: z.null(),
  },
  'POST /im/disgroupmem/save': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary: 'Adds persons of the estate to a group chat the caller is in (event 4)',
    body: ChatMembersAddSchema,
    response: z.null(),
  },
  'POST /im/chatrecord/list': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary:
      'Records of a chat by seq: order desc pages back from seq (older), asc forward after seq (newer); answers list, total, totalPage',
    body: ChatRecordListSchema,
    response: ChatRecordPageSchema,
  },
  'POST /im/chatrecord/save': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary:
      'Sends a record (type 1 text, 2 picture, 4 voice "<path>?<seconds>", 5 file): next seq, unread +1 for the others, event 1 (private) or 3 (group) to every member',
    body: ChatRecordSaveSchema,
    response: z.object({ recordId: z.number(), groupId: z.number(), seq: z.number(), createdAt: z.string() }),
  },
  'GET /im/chatrecord/delete/unread': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary: 'Marks a chat read for the caller (?groupId=)',
    query: ChatUnreadQuerySchema,
    response: z.null(),
  },
  'GET /im/chatrecord/check/chat/{a}/{b}': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary:
      'The private chat of the caller (a) and person b of the estate, created on first use (both get event 3100)',
    params: PrivateChatParamsSchema,
    response: PrivateChatAnswerSchema,
  },
  'POST /im/chatrecord/query/total/unread': {
    permission: 'authenticated',
    staffPermission: 'im:list',
    summary: 'Unread chat records of the caller over every group they are still in',
    response: z.number(),
  },
});
