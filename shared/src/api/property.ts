import { z } from 'zod';
import {
  IdListSchema,
  IdParamsSchema,
  IdSchema,
  KeywordSchema,
  PageBodySchema,
  intSchema,
  listPageSchema,
} from './common';
import { defineEndpoints } from './endpoint';
import { MAX_FLOORS, MAX_UNITS_PER_FLOOR } from '../unit-names';

// Buildings (issue 18; SPEC §1, §2, §3 "Unit info", "Parking space", "Merchant", §7 "Property"):
// blocks with their floors and units, car parks with their spaces, shops, and the invite / QR codes
// a resident's app joins a house with. Paths SPEC names are kept; the others (blocks, floors, car
// parks, saves, deletes, code regeneration) are this file's choice and documented in /openapi.json.

const Name = z.string().trim().min(1).max(50);
const OptionalText = z.string().trim().max(20).optional();
const InvitePerson = intSchema(0, 99);
const RoomCount = intSchema(0, 20);
const HouseStatusFilter = intSchema(1, 6).optional();

// ---- requests ----

export const BlockSaveSchema = z.object({
  name: Name,
  number: z.string().trim().min(1).max(20),
  floorCount: intSchema(1, MAX_FLOORS),
  unitsPerFloor: intSchema(1, MAX_UNITS_PER_FLOOR),
  prefix: OptionalText,
  suffix: OptionalText,
  houseType: intSchema(1, 3).default(1),
  invitePerson: InvitePerson.default(5),
});
export const BlockUpdateSchema = z.object({
  blockId: IdSchema,
  name: Name,
  number: z.string().trim().min(1).max(20),
  houseType: intSchema(1, 3),
});
export const FloorUpdateSchema = z.object({ floorId: IdSchema, name: Name });

export const UnitPageSchema = PageBodySchema.extend({
  blockId: IdSchema.optional(),
  floorId: IdSchema.optional(),
  houseStatus: HouseStatusFilter,
  keyword: KeywordSchema,
});
export const UnitModifyParamsSchema = z.object({
  unitId: IdSchema,
  room: RoomCount,
  livingRoom: RoomCount,
  restroom: RoomCount,
  invitePerson: InvitePerson,
});
export const UnitUpdateSchema = z.object({ unitId: IdSchema, name: Name });

export const CarParkSaveSchema = z.object({ carParkId: IdSchema.optional(), name: Name });
export const SpacePageSchema = PageBodySchema.extend({
  carParkId: IdSchema.optional(),
  type: intSchema(1, 2).optional(),
  houseStatus: HouseStatusFilter,
  keyword: KeywordSchema,
});
export const SpaceSaveSchema = z.object({
  carSpaceId: IdSchema.optional(),
  carParkId: IdSchema,
  carparkCode: Name,
  type: intSchema(1, 2),
  plate: z.string().trim().max(20).optional(),
  invitePerson: InvitePerson.default(3),
});
export const HouseModifyParamsSchema = z.object({ id: IdSchema, invitePerson: InvitePerson });

export const ShopPageSchema = PageBodySchema.extend({ houseStatus: HouseStatusFilter, keyword: KeywordSchema });
export const ShopSaveSchema = z.object({
  shopId: IdSchema.optional(),
  shopCode: Name,
  name: z.string().trim().max(100).optional(),
  invitePerson: InvitePerson.default(3),
});

/** Batch downloads: the selected houses ("Select at least one item" when empty). */
export const HouseIdsSchema = z.object({ ids: IdListSchema });

// ---- answers ----

export const FloorRowSchema = z.object({ floorId: z.number(), name: z.string(), number: z.number() });
export const BlockRowSchema = z.object({
  blockId: z.number(),
  name: z.string(),
  number: z.string().nullable(),
  floorCount: z.number(),
  unitsPerFloor: z.number(),
  prefix: z.string().nullable(),
  suffix: z.string().nullable(),
  houseType: z.number(),
  unitCount: z.number(),
  floors: z.array(FloorRowSchema),
});
export type BlockRow = z.infer<typeof BlockRowSchema>;
export type FloorRow = z.infer<typeof FloorRowSchema>;

const HouseFields = {
  invitePerson: z.number(),
  houseStatus: z.number(),
  /** The approved owner's name (SPEC §3 "Merchant: person"), null when none. */
  ownerName: z.string().nullable(),
};
export const UnitRowSchema = z.object({
  unitId: z.number(),
  name: z.string(),
  blockId: z.number(),
  buildName: z.string(),
  floorId: z.number(),
  floorName: z.string(),
  room: z.number(),
  livingRoom: z.number(),
  restroom: z.number(),
  authStatus: z.number(),
  ...HouseFields,
});
export type UnitRow = z.infer<typeof UnitRowSchema>;
export const SpaceRowSchema = z.object({
  carSpaceId: z.number(),
  carParkId: z.number(),
  carParkName: z.string(),
  carparkCode: z.string(),
  type: z.number(),
  plate: z.string().nullable(),
  ...HouseFields,
});
export type SpaceRow = z.infer<typeof SpaceRowSchema>;
export const ShopRowSchema = z.object({
  shopId: z.number(),
  shopCode: z.string(),
  name: z.string().nullable(),
  ...HouseFields,
});
export type ShopRow = z.infer<typeof ShopRowSchema>;

/** What an info dialog adds to a row: the join code and the owner (SPEC §3 "Unit info"). */
const InfoFields = {
  /** Null when staff revoked it and made no new one yet. */
  inviteCode: z.string().nullable(),
  owner: z.object({ personId: z.number(), name: z.string(), gender: z.number().nullable() }).nullable(),
};
export const UnitInfoSchema = UnitRowSchema.extend(InfoFields);
export type UnitInfo = z.infer<typeof UnitInfoSchema>;
export const SpaceInfoSchema = SpaceRowSchema.extend(InfoFields);
export type SpaceInfo = z.infer<typeof SpaceInfoSchema>;
export const ShopInfoSchema = ShopRowSchema.extend(InfoFields);
export type ShopInfo = z.infer<typeof ShopInfoSchema>;

export const CarParkRowSchema = z.object({ carParkId: z.number(), name: z.string(), spaceCount: z.number() });
export type CarParkRow = z.infer<typeof CarParkRowSchema>;

const FileSchema = z.string().meta({ format: 'binary' });

/** Rows an import file may have (SPEC §2 import dropdown). */
export const MAX_IMPORT_ROWS = 100_000;
/** One refused cell of an import file: its row (as Excel numbers it), column header and why. */
export const ImportErrorSchema = z.object({ row: z.number(), column: z.string(), reason: z.string() });
export type ImportError = z.infer<typeof ImportErrorSchema>;
/** A finished import: every row written. A file with any bad row answers 400 with `{ total, errors }` as data, nothing written. */
export const ImportAnswerSchema = z.object({ total: z.number(), written: z.number() });
export const ImportFormSchema = z.object({ file: FileSchema });
export const BuildLogPageSchema = PageBodySchema.extend({ kind: intSchema(1, 3).optional() });
export const BuildLogRowSchema = z.object({
  buildLogId: z.number(),
  personId: z.number(),
  personName: z.string().nullable(),
  kind: z.number(),
  action: z.string(),
  fileName: z.string().nullable(),
  total: z.number(),
  written: z.number(),
  failed: z.number(),
  createdAt: z.string(),
});
export type BuildLogRow = z.infer<typeof BuildLogRowSchema>;
const PNG = 'image/png';
const PDF = 'application/pdf';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const DELETE_NOTE = 'Refused with 409 while anyone is bound to it (a person_house link pending or approved).';

/** The calls every house kind has (SPEC §7 "the same set for /base/carpark … and /base/shop"). */
function codeCalls(what: string, perm: 'unit:view' | 'carpark:view' | 'shop:view') {
  return {
    qrcode: {
      permission: perm,
      summary: `The ${what}'s QR code as a PNG; it encodes the invite code a resident's app joins with (POST /app/personhouse/join).`,
      params: IdParamsSchema,
      answer: 'raw' as const,
      answerContentType: PNG,
      response: FileSchema,
    },
    qrcodes: {
      permission: perm,
      summary: `The selected ${what}s' QR codes as a printable A4 PDF, one labelled code per cell, labels in the caller's language.`,
      body: HouseIdsSchema,
      answer: 'raw' as const,
      answerContentType: PDF,
      response: FileSchema,
    },
    invitecodes: {
      permission: perm,
      summary: `The selected ${what}s' invite codes as an Excel file (one row each).`,
      body: HouseIdsSchema,
      answer: 'raw' as const,
      answerContentType: XLSX,
      response: FileSchema,
    },
    regenerate: {
      permission: perm,
      summary: `A new random invite code (and QR code) for the ${what}; the old one stops working at once.`,
      params: IdParamsSchema,
      response: z.string(),
    },
    revoke: {
      permission: perm,
      summary: `Revokes the ${what}'s invite code (and so its QR code): it stops working at once, a resident's join with it (POST /app/personhouse/join) answers 400 saying it was revoked, and the ${what} has no code (inviteCode null; its QR downloads answer 409) until POST …/regenerate/{id} makes a new one. Revoking again changes nothing.`,
      params: IdParamsSchema,
      response: z.null(),
    },
    delete: {
      permission: perm,
      summary: `Deletes the ${what}. ${DELETE_NOTE}`,
      params: IdParamsSchema,
      response: z.null(),
    },
    template: {
      permission: perm,
      summary: `The Excel template of a ${what} import, its headers in the caller's language.`,
      answer: 'raw' as const,
      answerContentType: XLSX,
      response: FileSchema,
    },
    import: {
      permission: perm,
      summary: `Imports ${what}s from an Excel file in field "file" (the template's columns; at most ${MAX_IMPORT_ROWS} rows, 20 MB), read as a stream. Every row is checked (required, numbers only, duplicates in the file and in the estate, existing blocks, floors and car parks); one bad row and nothing is written: 400 with data { total, errors: [{ row, column, reason }] }. Each import is logged in /build-log/v1.`,
      bodyType: 'multipart' as const,
      formBody: ImportFormSchema,
      response: ImportAnswerSchema,
    },
  };
}
const unitCodes = /* @__PURE__ */ codeCalls('unit', 'unit:view');
const spaceCodes = /* @__PURE__ */ codeCalls('parking space', 'carpark:view');
const shopCodes = /* @__PURE__ */ codeCalls('shop', 'shop:view');

export const propertyEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /base/block/list': {
    permission: 'unit:list',
    summary: "The estate's blocks with their floors, by block number (filters of the unit list, block dialogs)",
    response: z.array(BlockRowSchema),
  },
  'POST /base/block/save': {
    permission: 'unit:view',
    summary:
      'Creates a block with its floors and units in one transaction; unit names follow prefix + floor + letter + suffix (floor 12, third unit → "12C")',
    body: BlockSaveSchema,
    response: BlockRowSchema,
  },
  'POST /base/block/update': {
    permission: 'unit:view',
    summary: "Edits a block's name, number and house type",
    body: BlockUpdateSchema,
    response: BlockRowSchema,
  },
  'POST /base/block/delete/{id}': {
    permission: 'unit:view',
    summary: `Deletes a block with its floors and units. ${DELETE_NOTE}`,
    params: IdParamsSchema,
    response: z.null(),
  },
  'POST /base/floor/update': {
    permission: 'unit:view',
    summary: 'Renames a floor',
    body: FloorUpdateSchema,
    response: FloorRowSchema,
  },
  'POST /base/floor/delete/{id}': {
    permission: 'unit:view',
    summary: `Deletes a floor with its units. ${DELETE_NOTE}`,
    params: IdParamsSchema,
    response: z.null(),
  },
  'POST /base/unit/page': {
    permission: 'unit:list',
    summary:
      'Units of the estate, paged; filters: block, floor, house status (SPEC §4), keyword on unit name and owner',
    body: UnitPageSchema,
    response: listPageSchema(UnitRowSchema),
  },
  'POST /base/unit/modify/{unitId}/{room}/{livingRoom}/{restroom}/{invitePerson}': {
    permission: 'unit:view',
    summary: "Sets a unit's rooms, living rooms, restrooms and invite-member count",
    params: UnitModifyParamsSchema,
    response: UnitInfoSchema,
  },
  'POST /base/unit/update': {
    permission: 'unit:view',
    summary: 'Renames a unit (unique within its floor)',
    body: UnitUpdateSchema,
    response: UnitInfoSchema,
  },
  'GET /base/unit/info/{id}': {
    permission: 'unit:view',
    summary: 'One unit (SPEC §3 "Unit info"): block, floor, rooms, invite-member count, status, invite code, owner',
    params: IdParamsSchema,
    response: UnitInfoSchema,
  },
  'GET /base/unit/download/qrcode/{id}': unitCodes.qrcode,
  'POST /base/unit/download/qrcodes': unitCodes.qrcodes,
  'POST /base/unit/download/invitecodes': unitCodes.invitecodes,
  'POST /base/unit/regenerate/{id}': unitCodes.regenerate,
  'POST /base/unit/revoke/{id}': unitCodes.revoke,
  'POST /base/unit/delete/{id}': unitCodes.delete,
  'GET /base/unit/import/template': unitCodes.template,
  'POST /base/unit/import': unitCodes.import,

  'POST /base/carpark/park/list': {
    permission: 'carpark:list',
    summary: "The estate's car parks with their space counts",
    response: z.array(CarParkRowSchema),
  },
  'POST /base/carpark/park/save': {
    permission: 'carpark:view',
    summary: 'Creates a car park, or renames one when carParkId is given',
    body: CarParkSaveSchema,
    response: CarParkRowSchema,
  },
  'POST /base/carpark/park/delete/{id}': {
    permission: 'carpark:view',
    summary: `Deletes a car park with its spaces. ${DELETE_NOTE}`,
    params: IdParamsSchema,
    response: z.null(),
  },
  'POST /base/carpark/page': {
    permission: 'carpark:list',
    summary:
      'Parking spaces of the estate, paged; filters: car park, type, house status, keyword on code, plate and owner',
    body: SpacePageSchema,
    response: listPageSchema(SpaceRowSchema),
  },
  'POST /base/carpark/pageAdvancedSearch': {
    permission: 'carpark:list',
    summary: 'The same list as /base/carpark/page (SPEC names both; the console uses this one)',
    body: SpacePageSchema,
    response: listPageSchema(SpaceRowSchema),
  },
  'POST /base/carpark/save': {
    permission: 'carpark:view',
    summary: 'Creates a parking space (code unique in the estate), or edits one when carSpaceId is given',
    body: SpaceSaveSchema,
    response: SpaceInfoSchema,
  },
  'POST /base/carpark/modify/{id}/{invitePerson}': {
    permission: 'carpark:view',
    summary: "Sets a parking space's invite-member count",
    params: HouseModifyParamsSchema,
    response: SpaceInfoSchema,
  },
  'GET /base/carpark/info/{id}': {
    permission: 'carpark:view',
    summary:
      'One parking space (SPEC §3 "Parking space"): type, code, plate, invite-member count, status, invite code, owner',
    params: IdParamsSchema,
    response: SpaceInfoSchema,
  },
  'GET /base/carpark/download/qrcode/{id}': spaceCodes.qrcode,
  'POST /base/carpark/download/qrcodes': spaceCodes.qrcodes,
  'POST /base/carpark/download/invitecodes': spaceCodes.invitecodes,
  'POST /base/carpark/regenerate/{id}': spaceCodes.regenerate,
  'POST /base/carpark/revoke/{id}': spaceCodes.revoke,
  'POST /base/carpark/delete/{id}': spaceCodes.delete,
  'GET /base/carpark/import/template': spaceCodes.template,
  'POST /base/carpark/import': spaceCodes.import,

  'POST /base/shop/page': {
    permission: 'shop:list',
    summary: 'Shops of the estate, paged; filters: house status, keyword on code, name and owner',
    body: ShopPageSchema,
    response: listPageSchema(ShopRowSchema),
  },
  'POST /base/shop/save': {
    permission: 'shop:view',
    summary: 'Creates a shop (code unique in the estate), or edits one when shopId is given',
    body: ShopSaveSchema,
    response: ShopInfoSchema,
  },
  'POST /base/shop/modify/{id}/{invitePerson}': {
    permission: 'shop:view',
    summary: "Sets a shop's invite-member count",
    params: HouseModifyParamsSchema,
    response: ShopInfoSchema,
  },
  'GET /base/shop/info/{id}': {
    permission: 'shop:view',
    summary: 'One shop (SPEC §3 "Merchant"): code, name, person, invite-member count, status, invite code',
    params: IdParamsSchema,
    response: ShopInfoSchema,
  },
  'GET /base/shop/download/qrcode/{id}': shopCodes.qrcode,
  'POST /base/shop/download/qrcodes': shopCodes.qrcodes,
  'POST /base/shop/download/invitecodes': shopCodes.invitecodes,
  'POST /base/shop/regenerate/{id}': shopCodes.regenerate,
  'POST /base/shop/revoke/{id}': shopCodes.revoke,
  'POST /base/shop/delete/{id}': shopCodes.delete,
  'GET /base/shop/import/template': shopCodes.template,
  'POST /base/shop/import': shopCodes.import,
  'POST /base/unit/export': {
    permission: 'unit:list',
    summary: `The unit list with the list's filters as an Excel file, streamed (X-Total-Rows says how many rows follow).`,
    body: UnitPageSchema.omit({ page: true, limit: true }),
    answer: 'raw',
    answerContentType: XLSX,
    response: FileSchema,
  },
  'POST /base/carpark/export': {
    permission: 'carpark:list',
    summary: `The park space list with the list's filters as an Excel file, streamed (X-Total-Rows says how many rows follow).`,
    body: SpacePageSchema.omit({ page: true, limit: true }),
    answer: 'raw',
    answerContentType: XLSX,
    response: FileSchema,
  },
  'POST /base/shop/export': {
    permission: 'shop:list',
    summary: `The merchant list with the list's filters as an Excel file, streamed (X-Total-Rows says how many rows follow).`,
    body: ShopPageSchema.omit({ page: true, limit: true }),
    answer: 'raw',
    answerContentType: XLSX,
    response: FileSchema,
  },
  'POST /build-log/v1': {
    permission: 'unit:list',
    summary:
      "The estate's bulk changes of houses (imports), newest first: who, when, what, row counts; filter: kind (1 units, 2 spaces, 3 shops)",
    body: BuildLogPageSchema,
    response: listPageSchema(BuildLogRowSchema),
  },
});
