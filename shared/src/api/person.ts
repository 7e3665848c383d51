import { z } from 'zod';
import { defineEndpoints } from './endpoint';
import { IdParamsSchema, PersonImageSchema, intSchema } from './common';
import { PersonAssetSchema } from './work-orders';
import { JoinReviewSchema } from './person-house';

/** GET /base/person/info/{id}: a person of the estate. */
export const PersonInfoSchema = z.object({
  personId: z.number(),
  name: z.string(),
  gender: z.number(),
  tel: z.string().nullable(),
  email: z.string().nullable(),
  images: z.array(PersonImageSchema),
  accountType: z.number(),
});

/** The profile dialog's fields (SPEC §2 "edit profile"): name, gender, tel, avatar images (at most 9). */
export const PersonSaveSchema = z.object({
  name: z.string().trim().min(1).max(100),
  gender: intSchema(1, 2).optional(),
  tel: z.string().trim().max(30).nullable().optional(),
  images: z
    .array(z.object({ url: z.string().max(500) }))
    .max(9)
    .optional(),
});

export const personEndpoints = /* @__PURE__ */ defineEndpoints({
  'GET /base/person/info/{id}': {
    permission: 'authenticated',
    summary: 'A person of the estate (own record, or any with system:staff)',
    params: IdParamsSchema,
    response: PersonInfoSchema,
  },
  'POST /base/person/saveorupdate/{id}': {
    permission: 'authenticated',
    summary: 'Changes name, gender, phone and avatar of a person (own record, or any with system:staff)',
    params: IdParamsSchema,
    body: PersonSaveSchema,
    response: z.null(),
  },
  'GET /base/personhouse/list/{id}': {
    permission: 'authenticated',
    summary:
      "The approved houses of person {id} in the caller's estate. Needs one of complain:view, eventorder:view, unit:view, disasterwarn:list",
    params: IdParamsSchema,
    response: z.array(PersonAssetSchema),
  },
  'POST /base/personhouse/review': {
    permission: 'authenticated',
    summary:
      "Decides a pending request to join a house { personHouseId, status 2 certify | 3 refuse, refuseReason?, replaceOwner? } → { personHouseId, status }. Certifying an owner of a house that has one answers 409 (owners.errors.hasOwner) unless replaceOwner is true: then the old owner moves to the history in the same transaction (SPEC §4 owner change). Staff of the house's estate with unit:list, carpark:list or shop:list (by house type) decide any request; the house's approved owner decides tenants and relatives. Anything else answers 404. The person who asked gets event 12 with the outcome.",
    body: JoinReviewSchema,
    response: z.object({ personHouseId: z.number(), status: z.number() }),
  },
});
