// Instant messaging (SPEC §7 "Instant messaging", §3 "Chat"): groups, members and chat records,
// the address book and its settings (issue 31). Staff and residents use the chat calls with their
// own token (DESIGN §5).
import { z } from 'zod';
import { ChatMessageType } from '../enums';
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

/**
 * Record types: 1 text, 2 picture (an uploaded picture's path), 4 voice ("<path>?<seconds>"),
 * 5 file ("<path>?name=<file name>&size=<bytes>", which downloads under its name); 10 a system
 * line (member changes, dissolution, a work order made from a message) whose content is JSON
 * (`ChatSystemLine`), written by the api only.
 */
export const ChatRecordType = { ...ChatMessageType, system: 10 } as const;
export type ChatRecordType = (typeof ChatRecordType)[keyof typeof ChatRecordType];
export const ChatSendTypeSchema = z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(5)]);
/** Kept for callers of the first version of this file. */
export const ChatRecordTypeSchema = ChatSendTypeSchema;

const groupName = z.string().trim().min(1).max(50);
/** The Pinyin-search switch (settings drawer): the key also matches full Pinyin and initials ("zs" finds 张三). */
const pinyin = z.boolean().optional();

/** What a system line says (content of a type-10 record, JSON). Names are as they were then. */
export type ChatSystemLine =
  | { event: 'created'; by: ChatPersonName; persons: ChatPersonName[] }
  | { event: 'added'; by: ChatPersonName; persons: ChatPersonName[] }
  | { event: 'removed'; by: ChatPersonName; persons: ChatPersonName[] }
  | { event: 'quit'; by: ChatPersonName; newOwner?: ChatPersonName }
  | { event: 'renamed'; by: ChatPersonName; groupName: string }
  | { event: 'dissolved'; by: ChatPersonName }
  | {
      event: 'work';
      by: ChatPersonName;
      kind: 'complaint' | 'eventOrder';
      id: number;
      code: string;
      /** The message it was made from. */
      seq: number;
    };
export interface ChatPersonName {
  personId: number;
  name: string;
}

/** POST /im/disgroup/list: the caller's groups, newest activity first; key filters on group or member name. */
export const ChatGroupListSchema = PageBodySchema.extend({
  key: KeywordSchema,
  groupType: intSchema(1, 2).optional(),
  pinyin,
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
  /** Records the caller has not read (the group's counted records − what the caller had read). */
  unread: z.number(),
  lastSeq: z.number(),
  lastRecord: ChatLastRecordSchema.nullable(),
  /** A private chat: the other person (name and avatar); a group: none (its members: /im/disgroupmem/list/{id}). */
  members: z.array(ChatPersonSchema),
  memberCount: z.number(),
  /** A private chat: the other person, and whether they are a resident (has a house) or staff. */
  other: z.object({ personId: z.number(), resident: z.boolean() }).nullable(),
  updatedAt: z.string().nullable(),
});
export type ChatGroupRow = z.infer<typeof ChatGroupRowSchema>;

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
export type ChatGroupInfo = z.infer<typeof ChatGroupInfoSchema>;
export type ChatPerson = z.infer<typeof ChatPersonSchema>;

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
/** POST /im/disgroupmem/remove: the owner removes members from a group chat. */
export const ChatMembersRemoveSchema = z.object({ groupId: IdSchema, personIds: IdListSchema.max(200) });

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
  /** The sender's id of the message (null for system lines and older records). */
  clientId: z.string().nullable(),
  createdAt: z.string(),
});
export type ChatRecord = z.infer<typeof ChatRecordSchema>;
export const ChatRecordPageSchema = z.object({
  list: z.array(ChatRecordSchema),
  total: z.number(),
  totalPage: z.number(),
});

/** A client's id of one message: letters, digits, '-' and '_' (a UUID fits). */
export const ChatClientIdSchema = z
  .string()
  .trim()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

/**
 * POST /im/chatrecord/save. `content` by type: text (≤ 5000 characters); picture: the
 * originalImagePath of a picture the sender uploaded; voice: the voicePath ("<path>?<seconds>")
 * of a voice the sender uploaded; file: "<filePath>?name=<name>&size=<bytes>" of a file the
 * sender uploaded. `clientId` makes the call idempotent: the same clientId in the same group
 * stores one record and answers it again.
 */
export const ChatRecordSaveSchema = z.object({
  groupId: IdSchema,
  content: z.string().trim().min(1).max(5000),
  type: ChatSendTypeSchema.default(1),
  clientId: ChatClientIdSchema.optional(),
});
/** GET /im/chatrecord/delete/unread?groupId= */
export const ChatUnreadQuerySchema = z.object({ groupId: IdSchema });
/** GET /im/chatrecord/check/chat/{a}/{b}: the private chat of persons a (the caller) and b, created if new. */
export const PrivateChatParamsSchema = z.object({ a: IdSchema, b: IdSchema });
export const PrivateChatAnswerSchema = z.object({ groupId: z.number(), created: z.boolean() });

// ---- Address book (issue 31) ----

export const AddressBookSearchSchema = z.object({ key: KeywordSchema, pinyin });
export const StaffEntrySchema = z.object({
  personId: z.number(),
  name: z.string(),
  images: z.array(PersonImageSchema),
  tel: z.string().nullable(),
  position: z.string().nullable(),
  staffNumber: z.string().nullable(),
  /** Has an enabled account whose role may chat (im:list): a chat with them is answered. */
  canChat: z.boolean(),
});
export type StaffEntry = z.infer<typeof StaffEntrySchema>;
export const StaffDirectorySchema = z.object({
  departments: z.array(
    z.object({
      /** null: staff of no department. */
      departmentId: z.number().nullable(),
      name: z.string().nullable(),
      staff: z.array(StaffEntrySchema),
    }),
  ),
});
export type StaffDirectory = z.infer<typeof StaffDirectorySchema>;

export const ResidentDirectorySearchSchema = PageBodySchema.extend({
  key: KeywordSchema,
  pinyin,
  houseType: intSchema(1, 3).optional(),
});
/** One person at one house (approved), in house order: units by block, floor, unit; car park; shops. */
export const ResidentEntrySchema = z.object({
  personHouseId: z.number(),
  personId: z.number(),
  name: z.string(),
  images: z.array(PersonImageSchema),
  tel: z.string().nullable(),
  /** Identity: 1 owner, 2 tenant, 3 relatives and friends. */
  identity: z.number(),
  houseType: z.number(),
  houseId: z.number(),
  buildName: z.string().nullable(),
  floorName: z.string().nullable(),
  unitName: z.string().nullable(),
  carParkCode: z.string().nullable(),
  shopCode: z.string().nullable(),
});
export type ResidentEntry = z.infer<typeof ResidentEntrySchema>;

/** An entry of the residents' address book: a department (all its staff) or one staff member. */
export const AddressBookEntrySchema = z.object({
  /** 1 a department, 2 a staff member. */
  kind: z.union([z.literal(1), z.literal(2)]),
  id: IdSchema,
  /** Heading residents see; empty = the department's or person's own name. */
  title: z.string().trim().max(50).optional(),
});
export const AddressBookSettingsSaveSchema = z.object({
  title: z.string().trim().min(1).max(50),
  showPhone: z.boolean().default(false),
  entries: z.array(AddressBookEntrySchema).max(200),
});
export const AddressBookSettingsSchema = z.object({
  title: z.string(),
  showPhone: z.boolean(),
  entries: z.array(
    z.object({
      kind: z.number(),
      id: z.number(),
      title: z.string(),
      /** The department's or person's current name. */
      name: z.string(),
      /** Staff residents will see for this entry (a department: its staff who can chat). */
      staffCount: z.number(),
    }),
  ),
  updatedAt: z.string().nullable(),
});
export type AddressBookSettings = z.infer<typeof AddressBookSettingsSchema>;

/** GET /app/addressbook: what a resident's app shows. */
export const ResidentAddressBookSchema = z.object({
  title: z.string(),
  sections: z.array(
    z.object({
      title: z.string(),
      people: z.array(
        z.object({
          personId: z.number(),
          name: z.string(),
          avatar: z.string().nullable(),
          position: z.string().nullable(),
          tel: z.string().nullable(),
        }),
      ),
    }),
  ),
});

/** An open complaint or work order of a resident, as the chat's side panel lists it. */
export const ChatWorkBriefSchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  status: z.number(),
  reportTime: z.string(),
});
/** One approved house of a resident (a unit by block / floor / unit, a space, a shop). */
export const ResidentHouseBriefSchema = z.object({
  personHouseId: z.number(),
  houseType: z.number(),
  houseId: z.number(),
  identity: z.number(),
  buildName: z.string().nullable(),
  floorName: z.string().nullable(),
  unitName: z.string().nullable(),
  carParkCode: z.string().nullable(),
  shopCode: z.string().nullable(),
});
export const ResidentContextSchema = z.object({
  personId: z.number(),
  name: z.string(),
  tel: z.string().nullable(),
  houses: z.array(ResidentHouseBriefSchema),
  /** null: the caller may not list complaints (complain:list). */
  complaints: z.array(ChatWorkBriefSchema).nullable(),
  /** null: the caller may not list work orders (eventorder:list). */
  eventOrders: z.array(ChatWorkBriefSchema).nullable(),
});
export type ResidentContext = z.infer<typeof ResidentContextSchema>;

/**
 * POST /im/chatrecord/to/work: a complaint (kind complaint) or an event work order (kind
 * eventOrder, with `type` 1–5) reported in the name of the resident who sent message `seq`,
 * from one of their houses; note defaults to the message's text, img to its picture.
 */
export const ChatToWorkSchema = z.object({
  groupId: IdSchema,
  seq: intSchema(1, 2_147_483_647),
  kind: z.enum(['complaint', 'eventOrder']),
  type: intSchema(1, 5).optional(),
  name: z.string().trim().min(1).max(100),
  note: z.string().trim().min(1).max(2000),
  houseType: intSchema(1, 3),
  houseId: IdSchema,
});
export const ChatToWorkAnswerSchema = z.object({
  kind: z.enum(['complaint', 'eventOrder']),
  id: z.number(),
  code: z.string(),
});

const chatCall = { permission: 'authenticated', staffPermission: 'im:list' } as const;

export const chatEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /im/disgroup/list': {
    ...chatCall,
    summary:
      "The caller's chats (private and group), newest activity first, with unread count, last record and up to 4 members; key filters on group or member name (and, with pinyin true, their full Pinyin and initials). The console reads page 1 with limit 1000 (SPEC §7)",
    body: ChatGroupListSchema,
    response: listPageSchema(ChatGroupRowSchema),
  },
  'GET /im/disgroup/info/{id}': {
    ...chatCall,
    summary: 'One chat the caller is in, with its members',
    params: IdParamsSchema,
    response: ChatGroupInfoSchema,
  },
  'POST /im/disgroup/chatgroupperson': {
    ...chatCall,
    summary:
      'Creates a group chat of the caller and personIds (persons of the estate; name and at least one member required, SPEC §5); every member gets event 3200 and the chat starts with a system line',
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
    ...chatCall,
    summary:
      'Renames a group chat (owner only; the path keeps SPEC\'s spelling "updat"); members get event 4 with the new name and a system line',
    params: GroupIdParamsSchema,
    body: ChatGroupRenameSchema,
    response: z.null(),
  },
  'GET /im/disgroup/dismiss/{id}': {
    ...chatCall,
    summary:
      'Dissolves a group chat (owner only, SPEC §4 "exit and dissolve"); every member gets event 6 with the system line',
    params: IdParamsSchema,
    response: z.null(),
  },
  'POST /im/disgroupmem/list/{id}': {
    ...chatCall,
    summary: 'Current members of a chat the caller is in',
    params: IdParamsSchema,
    response: z.array(ChatPersonSchema),
  },
  'POST /im/disgroupmem/quit/disgroup/{id}': {
    ...chatCall,
    summary:
      'The caller leaves a group chat (event 5 and a system line); an owner hands it to the longest member, the last one out dissolves it',
    params: IdParamsSchema,
    response: z.null(),
  },
  'POST /im/disgroupmem/save': {
    ...chatCall,
    summary: 'Adds persons of the estate to a group chat the caller is in (event 4 and a system line)',
    body: ChatMembersAddSchema,
    response: z.null(),
  },
  'POST /im/disgroupmem/remove': {
    ...chatCall,
    summary:
      'The owner removes members from a group chat (event 5 to the members before, a system line); not in SPEC §7, which names no path for it',
    body: ChatMembersRemoveSchema,
    response: z.null(),
  },
  'POST /im/chatrecord/list': {
    ...chatCall,
    summary:
      'Records of a chat by seq: order desc pages back from seq (older), asc forward after seq (newer); answers list, total, totalPage',
    body: ChatRecordListSchema,
    response: ChatRecordPageSchema,
  },
  'POST /im/chatrecord/save': {
    ...chatCall,
    summary:
      'Sends a record (type 1 text, 2 picture, 4 voice "<path>?<seconds>", 5 file "<path>?name=&size="; the path of an upload of the sender): next seq, event 1 (private) or 3 (group) to every member. With clientId it is idempotent: a resend after a timeout or a restart answers the record already stored',
    body: ChatRecordSaveSchema,
    response: ChatRecordSchema,
  },
  'GET /im/chatrecord/delete/unread': {
    ...chatCall,
    summary:
      "Marks a chat read for the caller (?groupId=); the caller's tabs get event 3300 (chat read, this api's own number) and their unread counts drop",
    query: ChatUnreadQuerySchema,
    response: z.null(),
  },
  'GET /im/chatrecord/check/chat/{a}/{b}': {
    ...chatCall,
    summary:
      'The private chat of the caller (a) and person b of the estate, created on first use (both get event 3100)',
    params: PrivateChatParamsSchema,
    response: PrivateChatAnswerSchema,
  },
  'POST /im/chatrecord/query/total/unread': {
    ...chatCall,
    summary: 'Unread chat records of the caller over every group they are still in',
    response: z.number(),
  },
  'POST /im/chatrecord/to/work': {
    permission: 'im:list',
    summary:
      "Turns a resident's message into a complaint (needs complain:list) or an event work order (eventorder:list) reported in the resident's name from one of their approved houses; the message's pictures go with it, the staff who list that kind are told (message 50 / 49) and the chat gets a system line linking it",
    body: ChatToWorkSchema,
    response: ChatToWorkAnswerSchema,
  },
  'GET /im/chat/resident/{id}': {
    permission: 'im:list',
    summary:
      'Beside a chat with resident {id}: their approved houses and open (untreated and processing) complaints and work orders, each list only with its list permission (null otherwise)',
    params: IdParamsSchema,
    response: ResidentContextSchema,
  },
  'POST /im/addressbook/staff': {
    permission: 'im:list',
    summary:
      "The estate's staff by department (SPEC §1 address book), departments in their order; key matches name or phone (with pinyin true also full Pinyin and initials)",
    body: AddressBookSearchSchema,
    response: StaffDirectorySchema,
  },
  'POST /im/addressbook/residents': {
    permission: 'im:list',
    summary:
      "The estate's residents by house (units by block, floor and unit; car park spaces; shops), one row per approved person and house; key matches name or phone (with pinyin true also full Pinyin and initials)",
    body: ResidentDirectorySearchSchema,
    response: listPageSchema(ResidentEntrySchema),
  },
  'GET /im/addressbook/settings': {
    permission: 'im:list',
    summary:
      "The residents' address book of the estate: its title, whether staff phone numbers show, and its entries in order (departments and staff members). Until saved: title 'Management office', no entries",
    response: AddressBookSettingsSchema,
  },
  'POST /im/addressbook/settings/save': {
    permission: 'im:list',
    summary:
      "Sets the residents' address book: title (1–50), showPhone, entries in the order residents see them (kind 1 department with all its staff, 2 one staff member; ids of this estate, each once). Residents see only staff who can chat (an enabled account with im:list)",
    body: AddressBookSettingsSaveSchema,
    response: AddressBookSettingsSchema,
  },
  'GET /app/addressbook': {
    permission: 'authenticated',
    summary:
      "Resident: the estate's address book as set in the console's address-book settings (sections in order, the staff who can chat; phone numbers only when shown); chat with one through GET /im/chatrecord/check/chat/{me}/{personId}",
    response: ResidentAddressBookSchema,
  },
});
