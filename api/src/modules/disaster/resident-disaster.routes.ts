import { z } from 'zod';
import { DisasterReplySchema, SosHelpSchema } from '../../../../shared/src/api/resident';
import { defineRoute, type ApiModule } from '../../http/define-route';
import { Ok, RESIDENT, residentDeps as deps } from '../resident/resident-api';
import * as resident from './resident-disaster.service';

/** The resident's side of SOS help calls and disaster warnings (DESIGN §5). */
export const residentDisasterModule: ApiModule = {
  name: 'resident-disaster',
  routes: [
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
  ],
};
