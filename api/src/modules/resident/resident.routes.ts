import { z } from 'zod';
import { AppError } from '../../http/app-error';
import { defineRoute, type ApiModule } from '../../http/define-route';
import type { AuthedContext } from '../../http/request-context';
import {
  AnnouncementReadSchema,
  AnnouncementVoteSchema,
  ComplainSaveSchema,
  DisasterReplySchema,
  EventOrderSaveSchema,
  PersonHouseJoinSchema,
  ResidentHouseSchema,
  ResidentRateSchema,
  ResidentReplySchema,
  SosHelpSchema,
} from '../../../../shared/src/api/resident';
import * as resident from './resident.service';
import { JOIN_LIMITS } from './resident.service';

/**
 * The resident API of DESIGN §5 (the mobile app's calls). Every route needs a resident's token
 * (same /oauth/token); a staff token gets 403. Each call writes and notifies exactly as the
 * console's own changes do.
 */
function deps(ctx: AuthedContext): resident.ResidentDeps {
  if (ctx.caller.kind !== 'resident') throw AppError.forbidden();
  return {
    db: ctx.db,
    realtime: ctx.services.realtime,
    personId: ctx.caller.personId,
    accountId: ctx.caller.accountId,
    onPushError: (err) => ctx.log.error({ err }, 'push after commit failed'),
  };
}

const Ok = <T extends z.ZodRawShape>(shape: T) => z.object(shape);
const RESIDENT = 'Resident API (DESIGN §5), resident token only.';

export const residentModule: ApiModule = {
  name: 'resident',
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
      path: '/app/complain/save',
      permission: 'authenticated',
      summary: `${RESIDENT} Reports a complaint from one of the caller's houses → { complainId, complainCode } (code C + yyyyMMdd + daily sequence). Staff with complain:list get message 50 and a channelType 8 push.`,
      body: ComplainSaveSchema,
      response: Ok({ complainId: z.number(), complainCode: z.string() }),
      handler: async (ctx, { body }) => resident.saveComplaint(deps(ctx), body),
    }),
    defineRoute({
      method: 'post',
      path: '/app/eventOrder/save',
      permission: 'authenticated',
      summary: `${RESIDENT} Reports an event work order (type 1–5) → { eventOrderId, eventCode } (code E + yyyyMMdd + daily sequence). Staff with eventorder:list get message 49 and a channelType 7 push.`,
      body: EventOrderSaveSchema,
      response: Ok({ eventOrderId: z.number(), eventCode: z.string() }),
      handler: async (ctx, { body }) => resident.saveEventOrder(deps(ctx), body),
    }),
    defineRoute({
      method: 'post',
      path: '/app/complain/reply',
      permission: 'authenticated',
      summary: `${RESIDENT} The reporter replies on their complaint { id, content, img?, voice? } → { replyId }. The handling staff get message 13 (channelType 8).`,
      body: ResidentReplySchema,
      response: Ok({ replyId: z.number() }),
      handler: async (ctx, { body }) => resident.replyAsResident(deps(ctx), 'complaint', body),
    }),
    defineRoute({
      method: 'post',
      path: '/app/eventOrder/reply',
      permission: 'authenticated',
      summary: `${RESIDENT} The reporter replies on their work order → { replyId }. The handling staff get message 11 (channelType 7).`,
      body: ResidentReplySchema,
      response: Ok({ replyId: z.number() }),
      handler: async (ctx, { body }) => resident.replyAsResident(deps(ctx), 'eventOrder', body),
    }),
    defineRoute({
      method: 'post',
      path: '/app/complain/rate',
      permission: 'authenticated',
      summary: `${RESIDENT} Rates a completed complaint once (1–3 stars each) → { id, serviceScore }. 409 when not completed or already rated.`,
      body: ResidentRateSchema,
      response: Ok({ id: z.number(), serviceScore: z.number() }),
      handler: async (ctx, { body }) => resident.rateAsResident(deps(ctx), 'complaint', body),
    }),
    defineRoute({
      method: 'post',
      path: '/app/eventOrder/rate',
      permission: 'authenticated',
      summary: `${RESIDENT} Rates a completed work order once → { id, serviceScore }. 409 when not completed or already rated.`,
      body: ResidentRateSchema,
      response: Ok({ id: z.number(), serviceScore: z.number() }),
      handler: async (ctx, { body }) => resident.rateAsResident(deps(ctx), 'eventOrder', body),
    }),
    defineRoute({
      method: 'post',
      path: '/app/sos/help',
      permission: 'authenticated',
      summary: `${RESIDENT} An SOS help call from one of the caller's houses → { sosHelpId }. Staff with disasterwarn:list get alarm message 7 (channelType 10).`,
      body: SosHelpSchema,
      response: Ok({ sosHelpId: z.number() }),
      handler: async (ctx, { body }) => resident.sosHelpCall(deps(ctx), body),
    }),
    defineRoute({
      method: 'post',
      path: '/app/disaster/reply',
      permission: 'authenticated',
      summary: `${RESIDENT} Answers a disaster warning the caller received: reply 1 safe, 2 in danger zone, 3 not in danger zone, 4 wait in place, 5 ask for help, 6 other.`,
      body: DisasterReplySchema,
      response: Ok({ disasterWarnId: z.number(), reply: z.number() }),
      handler: async (ctx, { body }) => resident.replyToDisaster(deps(ctx), body),
    }),
    defineRoute({
      method: 'post',
      path: '/app/announcement/read',
      permission: 'authenticated',
      summary: `${RESIDENT} Marks an announcement of the caller's estate read (idempotent).`,
      body: AnnouncementReadSchema,
      response: Ok({ id: z.number() }),
      handler: async (ctx, { body }) => resident.readAnnouncement(deps(ctx), body.id),
    }),
    defineRoute({
      method: 'post',
      path: '/app/announcement/vote',
      permission: 'authenticated',
      summary: `${RESIDENT} Votes on a vote announcement { id, optionIds } (replaces an earlier vote; one option for single choice).`,
      body: AnnouncementVoteSchema,
      response: Ok({ id: z.number(), optionIds: z.array(z.number()) }),
      handler: async (ctx, { body }) => resident.voteAnnouncement(deps(ctx), body),
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
