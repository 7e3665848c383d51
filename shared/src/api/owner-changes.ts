import { z } from 'zod';
import { intSchema } from './common';
import { defineEndpoints } from './endpoint';

/**
 * Owner replacements for the dashboard (SPEC §1, issue 22): the owners who left a house of the
 * estate (their history rows, identity 1), newest first, with who owns the house now. Read from
 * person_house_history; the owners area (./person-house.ts) writes those rows.
 */

export const OwnerChangesSchema = z.object({ limit: intSchema(1, 50).default(5) });

export const OwnerChangeRowSchema = z.object({
  personHouseHistoryId: z.number(),
  /** The owner who left. */
  personId: z.number(),
  name: z.string(),
  /** The house's approved owner now; null while it has none. */
  newOwnerName: z.string().nullable(),
  houseType: z.number(),
  houseId: z.number(),
  buildName: z.string().nullable(),
  floorName: z.string().nullable(),
  unitName: z.string().nullable(),
  carParkCode: z.string().nullable(),
  shopCode: z.string().nullable(),
  /** When the owner left (ISO). */
  leaveTime: z.string(),
  /** OperationType: who ended the ownership (1 management office, 3 owner …). */
  operationType: z.number(),
});
export type OwnerChangeRow = z.infer<typeof OwnerChangeRowSchema>;

export const ownerChangeEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /base/personhousehistory/owners': {
    permission: 'authenticated',
    summary:
      "Owner replacements for the dashboard: owners who left a house of the caller's estate, newest first { limit 1–50, default 5 }, with the house's owner now. Only the house types the staff may list (unit:list, carpark:list, shop:list); staff with none of them and residents get 403.",
    body: OwnerChangesSchema,
    response: z.array(OwnerChangeRowSchema),
  },
});
