import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantColumns, time } from './columns';

/**
 * A chat group (groupType: ChatGroupType private / group). lastSeq is the newest record's seq;
 * messageCount counts the records that can be unread (every type but system lines), so a
 * member's unread count is messageCount − readCount: a difference of two numbers every tab and
 * device agrees on (DESIGN "Resume from a number").
 */
export const imGroup = pgTable(
  'im_group',
  {
    id: id(),
    ...tenantColumns(),
    groupType: smallint().notNull(),
    name: text(),
    /** Full Pinyin and initials of a Chinese group name ("anbao ab"), for the Pinyin search. */
    namePinyin: text(),
    ownerPersonId: integer().notNull(),
    /**
     * A private chat's other member (the one who is not its owner; both are members for good), so
     * the conversation list names the other party without a subquery per row. Null for groups.
     */
    peerPersonId: integer(),
    /** 1 a work group created by staff (address-book settings), 0 an ordinary chat. */
    isWorkGroup: boolean().notNull().default(false),
    lastSeq: integer().notNull().default(0),
    messageCount: integer().notNull().default(0),
    /** Current members (kept with every join and leave), so the conversation list counts no rows. */
    memberCount: integer().notNull().default(0),
    /** The newest record as the conversation list shows it (kept with every record, no join per row). */
    lastType: smallint(),
    lastContent: text(),
    lastFromPersonId: integer(),
    lastAt: time(),
    /**
     * What the conversation list showed from `person` by joins, kept on the group by the triggers
     * of migration 0047 in the writer's transaction (README "Issue 31: the conversation list's
     * statement"): the last sender's name, and for a private chat its owner's and peer's name,
     * avatar list (`images::text`) and resident flag (an approved person_house row). Null where the
     * person is missing (as the left joins gave) and, for the owner and peer, in groups.
     */
    lastFromName: text(),
    ownerName: text(),
    ownerImages: text(),
    ownerResident: boolean(),
    peerName: text(),
    peerImages: text(),
    peerResident: boolean(),
    dismissed: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: time(),
  },
  (t) => [
    index().on(t.housingEstateId, t.updatedAt.desc().nullsFirst()),
    // The triggers of 0047 find a person's groups by these when the person's name, avatar or
    // residence changes.
    index('im_group_owner_private_idx')
      .on(t.ownerPersonId)
      .where(sql`group_type = 1`),
    index('im_group_peer_idx')
      .on(t.peerPersonId)
      .where(sql`peer_person_id is not null`),
    index('im_group_last_from_idx')
      .on(t.lastFromPersonId)
      .where(sql`last_from_person_id is not null`),
  ],
);

/** Membership; the member has read up to readSeq, where the group's messageCount was readCount. */
export const imGroupMember = pgTable(
  'im_group_member',
  {
    groupId: integer().notNull(),
    personId: integer().notNull(),
    readSeq: integer().notNull().default(0),
    readCount: integer().notNull().default(0),
    joinedAt: createdAt(),
    quitAt: time(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.personId] }),
    // A person's current chats (the conversation list and the unread total).
    index('im_group_member_person_current_idx')
      .on(t.personId, t.groupId)
      .where(sql`quit_at is null`),
  ],
);

/**
 * A chat record; seq is per group and gapless. type: ChatRecordType (1 text, 2 picture, 4 voice,
 * 5 file, 10 a system line whose content is JSON). clientId is the sender's id of the message
 * (unique per group), so a resend of the same message stores nothing twice.
 */
export const imChatRecord = pgTable(
  'im_chat_record',
  {
    id: id(),
    ...tenantColumns(),
    groupId: integer().notNull(),
    seq: integer().notNull(),
    fromPersonId: integer().notNull(),
    type: smallint().notNull().default(1),
    content: text().notNull(),
    clientId: text(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex().on(t.groupId, t.seq), uniqueIndex('im_chat_record_client_id_idx').on(t.groupId, t.clientId)],
);

/** The Pinyin keys of a person's name, recomputed when the name no longer matches `name`. */
export const imPersonPinyin = pgTable('im_person_pinyin', {
  personId: integer().primaryKey(),
  /** The name the keys were computed from. */
  name: text().notNull(),
  /** "zhangsan zs": full Pinyin and initials, lower case; '' for a name without Chinese characters. */
  keys: text().notNull(),
});

/**
 * The residents' address book of an estate (address-book settings): the title their app shows
 * above it and whether staff phone numbers are shown. Its entries are im_address_book_entry.
 */
export const imAddressBook = pgTable(
  'im_address_book',
  {
    id: id(),
    ...tenantColumns(),
    title: text().notNull(),
    showPhone: boolean().notNull().default(false),
    updatedAt: time(),
    updatedBy: integer(),
  },
  (t) => [uniqueIndex().on(t.housingEstateId)],
);

/** One entry of the residents' address book, in `sort` order: a department (all its staff) or one staff member. */
export const imAddressBookEntry = pgTable(
  'im_address_book_entry',
  {
    id: id(),
    ...tenantColumns(),
    /** 1 a department, 2 a staff member. */
    kind: smallint().notNull(),
    departmentId: integer(),
    personId: integer(),
    /** The heading residents see for this entry; empty = the department's or person's name. */
    title: text(),
    sort: integer().notNull().default(0),
  },
  (t) => [index().on(t.housingEstateId, t.sort)],
);
