import { z } from 'zod';
import {
  ComplainSaveSchema,
  EventOrderSaveSchema,
  ResidentRateSchema,
  ResidentReplySchema,
} from '../../../../shared/src/api/resident';
import { defineRoute, type ApiModule } from '../../http/define-route';
import { Ok, RESIDENT, residentDeps as deps } from '../resident/resident-api';
import * as resident from './resident-work-orders.service';

/** The resident's side of complaints and event work orders (DESIGN §5): report, reply, rate. */
export const residentWorkOrdersModule: ApiModule = {
  name: 'resident-work-orders',
  routes: [
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
  ],
};
