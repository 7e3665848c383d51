import { z } from 'zod';
import { defineEndpoints } from './endpoint';
import { DEFAULT_LIMIT, DEFAULT_PAGE, MAX_LIMIT } from '../constants';
import { DayOrTimeSchema, IdSchema, intSchema, listPageSchema } from './common';

/**
 * Notification messages (SPEC §7 "Messages", §9). `unReadStatus` 0 lists unread messages only,
 * 1 read ones only; absent lists both. An absent or empty `messageTypeList` means every type.
 * `startTime` / `endTime`: days of the estate's time zone or exact instants (the historical messages screen).
 */
export const MessageListQuerySchema = z.object({
  page: intSchema(1, 1_000_000).default(DEFAULT_PAGE),
  limit: intSchema(1, MAX_LIMIT).default(DEFAULT_LIMIT),
  messageTypeList: z.array(intSchema(0, 10_000)).max(50).optional(),
  unReadStatus: intSchema(0, 1).optional(),
  startTime: DayOrTimeSchema.optional(),
  endTime: DayOrTimeSchema.optional(),
});
export type MessageListQuery = z.infer<typeof MessageListQuerySchema>;

export const MessageUnreadQuerySchema = z.object({
  messageTypeList: z.array(intSchema(0, 10_000)).max(50).optional(),
});

export const MessageHasReadSchema = z.object({ messageId: IdSchema });

/** `/base/message/unRead` answer (docs/internal-contract.md): every requested type is a key, zeros included. */
export const MessageUnreadSchema = z.object({
  total: z.number().int(),
  byType: z.record(z.string(), z.number().int()),
});
export type MessageUnread = z.infer<typeof MessageUnreadSchema>;

const ImageSchema = z.object({ url: z.string() });

/** One row of `/base/message/list`: the fields of SPEC §3 "Notification message". */
export const MessageRowSchema = z.object({
  messageId: z.number().int(),
  messageType: z.number().int(),
  /** ISO 8601, UTC. */
  messageTime: z.string(),
  dataId: z.number().int().nullable(),
  /** 0 unread, 1 read. */
  readStatus: z.number().int(),
  personHouseHistoryId: z.number().int().nullable(),
  personTriggerId: z.number().int().nullable(),
  personTrigger: z.object({ name: z.string(), images: z.array(ImageSchema) }).nullable(),
  name: z.string().nullable(),
  /** 1 residential, 2 parking, 3 merchant; null when the message is not about a house. */
  houseType: z.number().int().nullable(),
  unit: z.object({ name: z.string(), buildName: z.string(), floorName: z.string() }).nullable(),
  carpark: z.object({ carparkCode: z.string() }).nullable(),
  shop: z.object({ shopCode: z.string() }).nullable(),
  position: z.string().nullable(),
  disasterWarnEntity: z.object({ type: z.number().int() }).nullable(),
  disasterWarnPersonVoList: z.array(
    z.object({
      houseType: z.number().int(),
      unitName: z.string().nullable(),
      floorName: z.string().nullable(),
      buildName: z.string().nullable(),
      carParkCode: z.string().nullable(),
      shopCode: z.string().nullable(),
    }),
  ),
});
export type MessageRow = z.infer<typeof MessageRowSchema>;

export const messageEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /base/message/list': {
    permission: 'authenticated',
    summary:
      "The caller's notification messages, newest first. unReadStatus 0 = unread only, 1 = read only, absent = all; messageTypeList absent or empty = every type; startTime / endTime (yyyy-MM-dd days of the estate's zone, or ISO instants) bound messageTime.",
    body: MessageListQuerySchema,
    response: listPageSchema(MessageRowSchema),
  },
  'POST /base/message/unRead': {
    permission: 'authenticated',
    summary:
      'Unread message counts of the given types: { total, byType: { "<type>": count } } (every requested type present).',
    body: MessageUnreadQuerySchema,
    response: MessageUnreadSchema,
  },
  'POST /base/message/hasRead': {
    permission: 'authenticated',
    summary: "Marks one of the caller's messages read (idempotent). 404 when it is not the caller's.",
    body: MessageHasReadSchema,
    response: z.object({ messageId: z.number(), readStatus: z.number() }),
  },
});
