import { boolean, index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantColumns, time } from './columns';

/**
 * An announcement (type: AnnouncementType info / meeting / vote). Recipients are blocks and
 * identities; a vote has options with single or multiple choice and a reminder interval (hours).
 * A revoked announcement is no longer visible to residents.
 */
export const announcement = pgTable(
  'announcement',
  {
    id: id(),
    ...tenantColumns(),
    type: smallint().notNull(),
    title: text().notNull(),
    content: text().notNull(),
    publisherPersonId: integer().notNull(),
    recipientBlockIds: integer().array().notNull().default([]),
    recipientIdentities: integer().array().notNull().default([]),
    recipientCarParkIds: integer().array().notNull().default([]),
    recipientShopIds: integer().array().notNull().default([]),
    allowComment: boolean().notNull().default(false),
    deadline: time(),
    meetingPlace: text(),
    meetingTime: time(),
    selectionMode: smallint(),
    reminderInterval: integer(),
    revoked: boolean().notNull().default(false),
    revokedAt: time(),
    publishTime: createdAt(),
    /** When the next vote reminder is due (null: none); claimed by one api process at a time. */
    nextReminderAt: time(),
    /** Publish at a set time: recipients are told then (null once told, or when published at once). */
    scheduledAt: time(),
  },
  (t) => [
    index().on(t.housingEstateId, t.revoked, t.publishTime.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index().on(t.housingEstateId, t.type, t.publishTime.desc().nullsFirst()),
    index().on(t.nextReminderAt),
    index().on(t.scheduledAt),
  ],
);

/** Who an announcement was sent to: the people resolved from its blocks, car parks, shops and identities at publishing. */
export const announcementRecipient = pgTable(
  'announcement_recipient',
  {
    announcementId: integer().notNull(),
    personId: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.announcementId, t.personId] }), index().on(t.personId)],
);

export const announcementOption = pgTable(
  'announcement_option',
  {
    id: id(),
    announcementId: integer().notNull(),
    content: text().notNull(),
    sort: integer().notNull().default(0),
  },
  (t) => [index().on(t.announcementId, t.sort)],
);

export const announcementRead = pgTable(
  'announcement_read',
  {
    announcementId: integer().notNull(),
    personId: integer().notNull(),
    readTime: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.announcementId, t.personId] }),
    index().on(t.personId),
    // The read list: latest read first (issue 20).
    index().on(t.announcementId, t.readTime.desc(), t.personId),
  ],
);

export const announcementVote = pgTable(
  'announcement_vote',
  {
    id: id(),
    announcementId: integer().notNull(),
    personId: integer().notNull(),
    optionId: integer().notNull(),
    voteTime: createdAt(),
  },
  (t) => [index().on(t.announcementId, t.personId), index().on(t.optionId)],
);

export const announcementComment = pgTable(
  'announcement_comment',
  {
    id: id(),
    announcementId: integer().notNull(),
    personId: integer().notNull(),
    content: text().notNull(),
    createdAt: createdAt(),
    /** Hidden by staff: residents no longer see it. */
    hidden: boolean().notNull().default(false),
  },
  (t) => [index().on(t.announcementId, t.createdAt)],
);

/** A disaster warning (type: DisasterType) sent to the estate; revocable. */
export const disasterWarn = pgTable(
  'disaster_warn',
  {
    id: id(),
    ...tenantColumns(),
    type: smallint().notNull(),
    content: text().notNull(),
    publisherPersonId: integer().notNull(),
    /** The blocks it concerns (their residents are told); empty = the whole estate. */
    blockIds: integer().array().notNull().default([]),
    revoked: boolean().notNull().default(false),
    revokedAt: time(),
    publishTime: createdAt(),
  },
  (t) => [
    index().on(t.housingEstateId, t.revoked, t.publishTime.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index().on(t.housingEstateId, t.type),
  ],
);

/** One recipient of a warning, from which house, and their reply (DisasterReply) once given. */
export const disasterWarnPerson = pgTable(
  'disaster_warn_person',
  {
    id: id(),
    ...tenantColumns(),
    disasterWarnId: integer().notNull(),
    personId: integer().notNull(),
    houseType: smallint(),
    unitId: integer(),
    carSpaceId: integer(),
    shopId: integer(),
    reply: smallint(),
    note: text(),
    readTime: time(),
    replyTime: time(),
    /** A help request (reply 5) taken care of by staff: who, when, their note. */
    handledByPersonId: integer(),
    handledAt: time(),
    handledNote: text(),
  },
  (t) => [index().on(t.disasterWarnId, t.reply), index().on(t.personId)],
);

/**
 * An SOS help call from a resident (pushed as message type 7). status: 1 open, 2 handled (closed
 * with a note). A staff member acknowledges an open call first (acknowledged*); an open call nobody
 * acknowledged is announced again (lastAnnouncedAt) every SOS_REANNOUNCE_MS.
 */
export const sosHelp = pgTable(
  'sos_help',
  {
    id: id(),
    ...tenantColumns(),
    personId: integer().notNull(),
    houseType: smallint(),
    unitId: integer(),
    carSpaceId: integer(),
    shopId: integer(),
    position: text(),
    status: smallint().notNull().default(1),
    handledByPersonId: integer(),
    handledAt: time(),
    handledNote: text(),
    acknowledgedByPersonId: integer(),
    acknowledgedAt: time(),
    lastAnnouncedAt: time(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.housingEstateId, t.status, t.createdAt.desc().nullsFirst())],
);

/**
 * A resident's disaster declaration: damage or danger they report from one of their houses.
 * kind: 1 damage, 2 danger; type: DisasterType; status: 1 open, 2 handled (by whom, when, note).
 */
export const disasterDeclaration = pgTable(
  'disaster_declaration',
  {
    id: id(),
    ...tenantColumns(),
    personId: integer().notNull(),
    houseType: smallint().notNull(),
    unitId: integer(),
    carSpaceId: integer(),
    shopId: integer(),
    kind: smallint().notNull(),
    type: smallint().notNull(),
    content: text().notNull(),
    position: text(),
    img: text(),
    status: smallint().notNull().default(1),
    handledByPersonId: integer(),
    handledAt: time(),
    handledNote: text(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.housingEstateId, t.status, t.createdAt.desc().nullsFirst())],
);

/**
 * A notification message to one person (messageType of SPEC §9: 7, 11, 13, 27–29, 31–33, 49, 50).
 * dataId points at the complaint, order, warning, SOS call or link it is about.
 */
export const message = pgTable(
  'message',
  {
    id: id(),
    ...tenantColumns(),
    personId: integer().notNull(),
    messageType: smallint().notNull(),
    dataId: integer(),
    personHouseHistoryId: integer(),
    personTriggerId: integer(),
    name: text(),
    unitId: integer(),
    carSpaceId: integer(),
    shopId: integer(),
    position: text(),
    disasterWarnId: integer(),
    readStatus: boolean().notNull().default(false),
    messageTime: createdAt(),
  },
  (t) => [
    index('message_person_unread_type_idx').on(
      t.personId,
      t.readStatus,
      t.messageType,
      t.messageTime.desc().nullsFirst(),
    ),
    index().on(t.housingEstateId, t.messageTime.desc().nullsFirst()),
  ],
);
