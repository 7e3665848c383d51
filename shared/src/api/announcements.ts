import { z } from 'zod';
import { IdParamsSchema, IdSchema, KeywordSchema, PageBodySchema, intSchema, listPageSchema } from './common';
import { defineEndpoints } from './endpoint';

// Announcements (SPEC §1–§5, issue 20): info, meeting and vote notices sent to the residents of
// chosen blocks, car parks and shops with chosen identities; read lists, read results, vote
// results, revoke. Staff calls need bulletin:list; the resident's calls are in ./resident.ts.
//
// Who votes: every recipient person votes for themselves (per person, not per house). Read results
// (SPEC §4) as the api reports them: unread, read (info and meeting notices), read-not-voted,
// read-and-voted (vote notices). "Authorized participation" (voting for someone else) is not offered.

/** An ISO date-time. */
const Instant = z
  .string()
  .trim()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), { message: 'not a date' });

const IdArray = z.array(IdSchema).max(1000);

/** Who receives it: at least one block and at least one identity (SPEC §5); car parks and shops optional. */
export const AnnouncementRecipientsSchema = z.object({
  recipientBlockIds: IdArray.min(1),
  recipientCarParkIds: IdArray.default([]),
  recipientShopIds: IdArray.default([]),
  recipientIdentities: z.array(intSchema(1, 3)).min(1).max(3),
});
export type AnnouncementRecipients = z.infer<typeof AnnouncementRecipientsSchema>;

/**
 * A new announcement. Meeting notices need meetingPlace and meetingTime; vote notices need a
 * deadline, a selectionMode, a reminderInterval (hours) and at least one option (the api checks
 * these per type and answers 400 with the missing one).
 */
export const AnnouncementSaveSchema = AnnouncementRecipientsSchema.extend({
  type: intSchema(1, 3),
  title: z.string().trim().min(1).max(200),
  /** HTML from the editor; sanitized by the api before it is stored. */
  content: z.string().trim().min(1).max(200_000),
  allowComment: z.boolean().default(false),
  deadline: Instant.optional(),
  meetingPlace: z.string().trim().max(200).optional(),
  meetingTime: Instant.optional(),
  selectionMode: intSchema(1, 2).optional(),
  reminderInterval: intSchema(1, 24 * 30).optional(),
  options: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
  /** Publish at a set time (recipients resolved now, told and shown then); absent = at once. */
  publishAt: Instant.optional(),
});
export type AnnouncementSave = z.infer<typeof AnnouncementSaveSchema>;

export const AnnouncementListSchema = PageBodySchema.extend({
  type: intSchema(1, 3).optional(),
  /** 1: only revoked, 0: only not revoked. */
  revoked: intSchema(0, 1).optional(),
  keyword: KeywordSchema,
});

/** 0 unread, 1 read (both when absent). */
export const AnnouncementReadListSchema = PageBodySchema.extend({ read: intSchema(0, 1).optional() });

export const AnnouncementRowSchema = z.object({
  id: z.number(),
  type: z.number(),
  title: z.string(),
  publisherName: z.string(),
  publishTime: z.string(),
  deadline: z.string().nullable(),
  revoked: z.boolean(),
  revokedAt: z.string().nullable(),
  /** Published at a set time that has not come yet. */
  scheduled: z.boolean(),
  recipientCount: z.number(),
  readCount: z.number(),
});
export type AnnouncementRow = z.infer<typeof AnnouncementRowSchema>;

export const AnnouncementOptionResultSchema = z.object({
  id: z.number(),
  content: z.string(),
  votes: z.number(),
});

/** Totals of the read results (SPEC §4) over the recipients. */
export const ReadTotalsSchema = z.object({
  recipients: z.number(),
  unread: z.number(),
  read: z.number(),
  readNotVoted: z.number(),
  readAndVoted: z.number(),
});
export type ReadTotals = z.infer<typeof ReadTotalsSchema>;

export const AnnouncementDetailSchema = AnnouncementRowSchema.extend({
  content: z.string(),
  allowComment: z.boolean(),
  meetingPlace: z.string().nullable(),
  meetingTime: z.string().nullable(),
  selectionMode: z.number().nullable(),
  reminderInterval: z.number().nullable(),
  recipientBlockIds: z.array(z.number()),
  recipientCarParkIds: z.array(z.number()),
  recipientShopIds: z.array(z.number()),
  recipientIdentities: z.array(z.number()),
  options: z.array(AnnouncementOptionResultSchema),
  totals: ReadTotalsSchema,
});
export type AnnouncementDetail = z.infer<typeof AnnouncementDetailSchema>;

/** One recipient in the read lists: read result (ReadResult) and, for a vote, the chosen options. */
export const AnnouncementReaderSchema = z.object({
  personId: z.number(),
  name: z.string(),
  readResult: z.number(),
  readTime: z.string().nullable(),
  optionIds: z.array(z.number()),
});
export type AnnouncementReader = z.infer<typeof AnnouncementReaderSchema>;

/** What the add screen offers as recipients: the estate's blocks, car parks and shops. */
export const RecipientChoicesSchema = z.object({
  blocks: z.array(z.object({ id: z.number(), name: z.string() })),
  carParks: z.array(z.object({ id: z.number(), name: z.string() })),
  shops: z.array(z.object({ id: z.number(), name: z.string() })),
});

export const AnnouncementCommentSchema = z.object({
  id: z.number(),
  personId: z.number(),
  name: z.string(),
  content: z.string(),
  createdAt: z.string(),
  hidden: z.boolean(),
});
export type AnnouncementComment = z.infer<typeof AnnouncementCommentSchema>;

/** The resident's list: the announcements sent to them, not revoked, newest first. */
export const ResidentAnnouncementSchema = z.object({
  id: z.number(),
  type: z.number(),
  title: z.string(),
  content: z.string(),
  publishTime: z.string(),
  deadline: z.string().nullable(),
  meetingPlace: z.string().nullable(),
  meetingTime: z.string().nullable(),
  selectionMode: z.number().nullable(),
  options: z.array(z.object({ id: z.number(), content: z.string() })),
  read: z.boolean(),
  optionIds: z.array(z.number()),
});

export const announcementEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /announcement/query/list': {
    permission: 'bulletin:list',
    summary: "The estate's announcements, newest first, revoked ones marked; filters: type, revoked, keyword (title)",
    body: AnnouncementListSchema,
    response: listPageSchema(AnnouncementRowSchema),
  },
  'POST /announcement/query/id/{id}': {
    permission: 'bulletin:list',
    summary: 'One announcement: content, recipients, options with their votes, read-result totals',
    params: IdParamsSchema,
    response: AnnouncementDetailSchema,
  },
  'POST /announcement/query/readers/{id}': {
    permission: 'bulletin:list',
    summary: 'Its recipients with their read result (SPEC §4) and chosen options; read 0 unread, 1 read',
    params: IdParamsSchema,
    body: AnnouncementReadListSchema,
    response: listPageSchema(AnnouncementReaderSchema),
  },
  'POST /announcement/recipients/count': {
    permission: 'bulletin:list',
    summary: 'How many people these blocks, car parks, shops and identities reach (approved residents of the estate)',
    body: AnnouncementRecipientsSchema,
    response: z.object({ count: z.number() }),
  },
  'GET /announcement/recipients/choices': {
    permission: 'bulletin:list',
    summary: "The estate's blocks, car parks and shops to choose recipients from",
    response: RecipientChoicesSchema,
  },
  'POST /announcement/save': {
    permission: 'bulletin:list',
    summary:
      'Publishes an announcement now: content sanitized, recipients resolved and stored, each told (event 9); staff who list announcements are pushed it',
    body: AnnouncementSaveSchema,
    response: AnnouncementDetailSchema,
  },
  'POST /announcement/revoke': {
    permission: 'bulletin:list',
    summary: 'Revokes it: residents no longer see it and are told; votes are refused (409 when already revoked)',
    body: z.object({ id: IdSchema }),
    response: AnnouncementDetailSchema,
  },
  'GET /announcement/export/{id}': {
    permission: 'bulletin:list',
    summary:
      "Its results as an Excel workbook (.xlsx): a sheet of totals and votes per option, a sheet of every recipient with read result, read time and choice; in the caller's language",
    params: IdParamsSchema,
    answer: 'raw',
    answerContentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    response: z.string().meta({ format: 'binary' }),
  },
  'POST /announcement/query/comments/{id}': {
    permission: 'bulletin:list',
    summary: 'Its comments, oldest first, hidden ones marked',
    params: IdParamsSchema,
    response: z.array(AnnouncementCommentSchema),
  },
  'POST /announcement/comment/hide': {
    permission: 'bulletin:list',
    summary: 'Hides a comment from residents (hidden true) or shows it again (false)',
    body: z.object({ id: IdSchema, hidden: z.boolean() }),
    response: AnnouncementCommentSchema,
  },
  'POST /app/announcement/comment': {
    permission: 'authenticated',
    summary:
      'Resident API (DESIGN §5), resident token only. Comments on an announcement sent to the caller; 409 when it allows no comments or was revoked',
    body: z.object({ id: IdSchema, content: z.string().trim().min(1).max(1000) }),
    response: AnnouncementCommentSchema,
  },
  'GET /app/announcement/comments/{id}': {
    permission: 'authenticated',
    summary:
      'Resident API (DESIGN §5), resident token only. The comments residents see (hidden ones left out), oldest first',
    params: IdParamsSchema,
    response: z.array(AnnouncementCommentSchema),
  },
  'GET /app/announcement/list': {
    permission: 'authenticated',
    summary:
      'Resident API (DESIGN §5), resident token only. The announcements sent to the caller, not revoked, newest first, with their read state and vote',
    response: z.array(ResidentAnnouncementSchema),
  },
});
