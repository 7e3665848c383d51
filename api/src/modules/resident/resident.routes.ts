import { AppError } from '../../http/app-error';
import { route, type ApiModule } from '../../http/define-route';
import type { AuthedContext } from '../../http/request-context';

import * as resident from './resident.service';

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

export const residentModule: ApiModule = {
  name: 'resident',
  routes: [
    route('GET /app/house/list', async (ctx) => resident.listHouses(deps(ctx))),
    route('POST /app/complain/save', async (ctx, { body }) => resident.saveComplaint(deps(ctx), body)),
    route('POST /app/eventOrder/save', async (ctx, { body }) => resident.saveEventOrder(deps(ctx), body)),
    route('POST /app/complain/reply', async (ctx, { body }) => resident.replyAsResident(deps(ctx), 'complaint', body)),
    route('POST /app/eventOrder/reply', async (ctx, { body }) =>
      resident.replyAsResident(deps(ctx), 'eventOrder', body),
    ),
    route('POST /app/complain/rate', async (ctx, { body }) => resident.rateAsResident(deps(ctx), 'complaint', body)),
    route('POST /app/eventOrder/rate', async (ctx, { body }) => resident.rateAsResident(deps(ctx), 'eventOrder', body)),
    route('POST /app/sos/help', async (ctx, { body }) => resident.sosHelpCall(deps(ctx), body)),
    route('POST /app/disaster/reply', async (ctx, { body }) => resident.replyToDisaster(deps(ctx), body)),
    route('POST /app/announcement/read', async (ctx, { body }) => resident.readAnnouncement(deps(ctx), body.id)),
    route('POST /app/announcement/vote', async (ctx, { body }) => resident.voteAnnouncement(deps(ctx), body)),
    route('POST /app/personhouse/join', async (ctx, { body }) => resident.joinHouse(deps(ctx), body)),
  ],
};
