// Instant messaging (SPEC §7 "Instant messaging", §3 "Chat"): groups, members and chat records.
// Staff and residents use the same calls with their own token (DESIGN §5).
import { z } from 'zod';
import { IdListSchema, IdSchema, KeywordSchema, PageBodySchema, PersonImageSchema, intSchema } from './common';

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
