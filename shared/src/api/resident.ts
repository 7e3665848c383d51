import { z } from 'zod';
import { IdSchema, intSchema } from './common';

/**
 * Request bodies of the resident API (DESIGN §5, paths under `/app/`). The api validates with
 * them, the simulator builds its calls from them, and /openapi.json documents them.
 * Numbers also come as decimal-digit strings, so a mobile app sending "12" is understood as 12.
 */

const id = IdSchema;
const houseType = intSchema(1, 3);
/** `;`-joined list of uploaded file paths (SPEC §9). */
const fileList = z.string().max(4000).optional();
const text = (max: number) => z.string().trim().min(1).max(max);

export const ResidentHouseSchema = z.object({
  houseType: z.number().int(),
  houseId: z.number().int(),
  /** Unit display (SPEC §3): block/floor/unit name, car park code or shop code. */
  name: z.string(),
  identity: z.number().int(),
});
export type ResidentHouse = z.infer<typeof ResidentHouseSchema>;

export const ComplainSaveSchema = z.object({
  name: text(100),
  note: text(2000),
  img: fileList,
  voice: fileList,
  houseType,
  houseId: id,
});
export type ComplainSave = z.infer<typeof ComplainSaveSchema>;

export const EventOrderSaveSchema = ComplainSaveSchema.extend({ type: intSchema(1, 5) });
export type EventOrderSave = z.infer<typeof EventOrderSaveSchema>;

export const ResidentReplySchema = z.object({ id, content: text(2000), img: fileList, voice: fileList });
export type ResidentReply = z.infer<typeof ResidentReplySchema>;

const stars = intSchema(1, 3);
export const ResidentRateSchema = z.object({
  id,
  serviceEfficiency: stars,
  serviceAttitude: stars,
  serviceProcess: stars,
  serviceComment: z.string().trim().max(500).optional(),
});
export type ResidentRate = z.infer<typeof ResidentRateSchema>;

export const SosHelpSchema = z.object({ houseType, houseId: id, position: z.string().trim().max(200).optional() });
export type SosHelp = z.infer<typeof SosHelpSchema>;

/** reply: 1 safe, 2 in danger zone, 3 not in danger zone, 4 wait in place, 5 ask for help, 6 other (DisasterReply). */
export const DisasterReplySchema = z.object({
  disasterWarnId: id,
  reply: intSchema(1, 6),
  note: z.string().trim().max(500).optional(),
});
export type DisasterReplyBody = z.infer<typeof DisasterReplySchema>;

export const AnnouncementReadSchema = z.object({ id });
export const AnnouncementVoteSchema = z.object({ id, optionIds: z.array(id).min(1).max(50) });
export type AnnouncementVote = z.infer<typeof AnnouncementVoteSchema>;

export const PersonHouseJoinSchema = z.object({
  inviteCode: z.string().trim().min(1).max(64),
  identity: intSchema(1, 3),
});
export type PersonHouseJoin = z.infer<typeof PersonHouseJoinSchema>;

/** Answers. */
export interface ComplainSaved {
  complainId: number;
  complainCode: string;
}
export interface EventOrderSaved {
  eventOrderId: number;
  eventCode: string;
}
