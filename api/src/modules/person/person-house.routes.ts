import { z } from 'zod';
import { IdParamsSchema, IdSchema, PersonAssetSchema } from '@pm/shared';
import { AppError } from '../../http/app-error';
import { defineRoute, type ApiModule } from '../../http/define-route';
import { reviewJoinRequest } from './join-review.service';
import { personAssets } from './person.service';

/** Screens that open a person's houses: complaint and work-order details, units, SOS help calls. */
const MAY_SEE_ASSETS = ['complain:view', 'eventorder:view', 'unit:view', 'disasterwarn:list'];

/** Approve (2) or refuse (3) a pending request to join a house. */
const JoinReviewSchema = z.object({
  personHouseId: IdSchema,
  status: z.union([z.literal(2), z.literal(3)]),
});

/** A person's houses in the caller's estate ("more industries", SPEC §2, §3 "Person asset"). */
export const personHouseModule: ApiModule = {
  name: 'person-house',
  routes: [
    defineRoute({
      method: 'get',
      path: '/base/personhouse/list/:id',
      permission: 'authenticated',
      summary: `The approved houses of person {id} in the caller's estate. Needs one of ${MAY_SEE_ASSETS.join(', ')}`,
      params: IdParamsSchema,
      response: z.array(PersonAssetSchema),
      handler: async (ctx, { params }) => {
        if (!MAY_SEE_ASSETS.some((p) => ctx.caller.perms.has(p))) throw AppError.forbidden();
        return personAssets(ctx.db, ctx.tenant, params.id);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/base/personhouse/review',
      permission: 'authenticated',
      summary:
        "Decides a pending request to join a house { personHouseId, status 2 approve | 3 refuse } → { personHouseId, status }. Staff of the house's estate with unit:list, carpark:list or shop:list (by house type) decide any request; the house's approved owner decides tenants and relatives. Anything else answers 404. The person who asked gets event 12 with the outcome.",
      body: JoinReviewSchema,
      response: z.object({ personHouseId: z.number(), status: z.number() }),
      handler: async (ctx, { body }) =>
        reviewJoinRequest(
          {
            db: ctx.db,
            realtime: ctx.services.realtime,
            onPushError: (err) => ctx.log.error({ err }, 'push after commit failed'),
          },
          ctx.caller,
          body,
        ),
    }),
  ],
};
