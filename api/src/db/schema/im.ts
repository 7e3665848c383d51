import { boolean, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantColumns, time } from './columns';

/** A chat group (groupType: ChatGroupType private / group). lastSeq is the newest record's seq. */
export const imGroup = pgTable(
  'im_group',
  {
    id: id(),
    ...tenantColumns(),
    groupType: smallint().notNull(),
    name: text(),
    ownerPersonId: integer().notNull(),
    /** 1 a work group created by staff (address-book settings), 0 an ordinary chat. */
    isWorkGroup: boolean().notNull().default(false),
    lastSeq: integer().notNull().default(0),
    dismissed: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: time(),
  },
  (t) => [index().on(t.housingEstateId, t.updatedAt.desc().nullsFirst())],
);

/** Membership; unread counts records after readSeq from other members. */
export const imGroupMember = pgTable(
  'im_group_member',
  {
    groupId: integer().notNull(),
    personId: integer().notNull(),
    readSeq: integer().notNull().default(0),
    unread: integer().notNull().default(0),
    joinedAt: createdAt(),
    quitAt: time(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.personId] }), index().on(t.personId, t.unread)],
);

/** A chat record; seq is per group and gapless. type: ChatMessageType. */
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
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex().on(t.groupId, t.seq)],
);
