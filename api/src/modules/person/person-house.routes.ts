import { AppError } from '../../http/app-error';
import { route, type ApiModule } from '../../http/define-route';
import { reviewJoinRequest } from './join-review.service';
import { personAssets } from './person.service';

/** Screens that open a person's houses: complaint and work-order details, units, SOS help calls. */
const MAY_SEE_ASSETS = ['complain:view', 'eventorder:view', 'unit:view', 'disasterwarn:list'];

/** A person's houses in the caller's estate ("more industries", SPEC §2, §3 "Person asset"). */
export const personHouseModule: ApiModule = {
  name: 'person-house',
  routes: [
    route('GET /base/personhouse/list/{id}', async (ctx, { params }) => {
      if (!MAY_SEE_ASSETS.some((p) => ctx.caller.perms.has(p))) throw AppError.forbidden();
      return personAssets(ctx.db, ctx.tenant, params.id);
    }),
    route('POST /base/personhouse/review', async (ctx, { body }) =>
      reviewJoinRequest(
        {
          db: ctx.db,
          realtime: ctx.services.realtime,
          onPushError: (err) => ctx.log.error({ err }, 'push after commit failed'),
        },
        ctx.caller,
        body,
      ),
    ),
  ],
};
