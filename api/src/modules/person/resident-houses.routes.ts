import { z } from 'zod';
import { PersonHouseJoinSchema, ResidentHouseSchema } from '../../../../shared/src/api/resident';
import { defineRoute, type ApiModule } from '../../http/define-route';
import { Ok, RESIDENT, residentDeps as deps } from '../resident/resident-api';
import * as resident from './resident-houses.service';
import { JOIN_LIMITS } from './resident-houses.service';

/** The resident's own houses (DESIGN §5): the list, and joining one by invite code. */
export const residentHousesModule: ApiModule = {
  name: 'resident-houses',
  routes: [
    defineRoute({
      method: 'get',
      path: '/app/house/list',
      permission: 'authenticated',
      summary: `${RESIDENT} The caller's approved units, parking spaces and shops: [{ houseType, houseId, name, identity }].`,
      response: z.array(ResidentHouseSchema),
      handler: async (ctx) => resident.listHouses(deps(ctx)),
    }),
    defineRoute({
      method: 'post',
      path: '/app/personhouse/join',
      permission: 'authenticated',
      summary: `${RESIDENT} Asks to join a unit, parking space or shop by its invite code { inviteCode, identity 1 owner, 2 tenant, 3 relatives } → { personHouseId, status 1 (pending review), houseType, houseId }. Every request waits for the review of the house's owner or the estate's staff (POST /base/personhouse/review); until then the house is not the caller's. Staff with the house's list permission get message 27/28/29 (channelType 12). Per account at most ${JOIN_LIMITS.requests.max} requests and ${JOIN_LIMITS.wrongCodes.max} wrong codes an hour, then 429.`,
      body: PersonHouseJoinSchema,
      response: Ok({ personHouseId: z.number(), status: z.number(), houseType: z.number(), houseId: z.number() }),
      successMessage: 'resident.messages.joinPending',
      handler: async (ctx, { body }) => resident.joinHouse(deps(ctx), body),
    }),
  ],
};
