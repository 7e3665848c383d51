import { JoinStatus } from '@pm/shared';
import { AppError } from '../../http/app-error';
import { route, type ApiModule } from '../../http/define-route';
import type { AuthedContext } from '../../http/request-context';
import { serveUpload } from '../upload/serve-upload';
import { createUploadStore } from '../upload/upload-store';
import * as people from './house-people.service';
import { personAssets } from './person.service';

/** Screens that open a person's houses: complaint and work-order details, units, SOS help calls. */
const MAY_SEE_ASSETS = ['complain:view', 'eventorder:view', 'unit:view', 'disasterwarn:list'];

const deps = (ctx: AuthedContext): people.PeopleDeps => ({
  db: ctx.db,
  realtime: ctx.services.realtime,
  onPushError: (err) => ctx.log.error({ err }, 'push after commit failed'),
});

/**
 * Owners and residents (SPEC §2 owner review, §4 owner change): the review list and its
 * decisions, each house's people and history staff, a person's houses ("more industries").
 */
export const personHouseModule: ApiModule = {
  name: 'person-house',
  routes: [
    route('GET /base/personhouse/list/{id}', async (ctx, { params }) => {
      if (!MAY_SEE_ASSETS.some((p) => ctx.caller.perms.has(p))) throw AppError.forbidden();
      return personAssets(ctx.db, ctx.tenant, params.id);
    }),
    route('POST /base/personhouse/review', async (ctx, { body }) =>
      people.reviewJoinRequest(deps(ctx), ctx.caller, body),
    ),
    route('POST /base/personhouse/page', async (ctx, { body }) =>
      people.listRequests(ctx.db, ctx.caller, ctx.tenant, body),
    ),
    route('GET /base/personhouse/totals', async (ctx) => people.countRequests(ctx.db, ctx.caller, ctx.tenant)),
    route('POST /base/personhouse/member/page', async (ctx, { body }) =>
      people.listMembers(ctx.db, ctx.caller, ctx.tenant, body),
    ),
    route('GET /base/personhouse/info/{id}', async (ctx, { params }) =>
      people.getLink(ctx.db, ctx.caller, ctx.tenant, params.id),
    ),
    route('GET /base/personhouse/certimg/{id}', async (ctx, { params }) => {
      const path = await people.certImagePath(ctx.db, ctx.caller, ctx.tenant, params.id);
      ctx.res.setHeader('Cache-Control', 'private, no-store');
      if (!(await serveUpload(createUploadStore(ctx.services.config.uploadDir), path, ctx.req, ctx.res)))
        throw AppError.notFound();
    }),
    route('POST /base/personhouse/remove', async (ctx, { body }) =>
      people.endLinkAsStaff(deps(ctx), ctx.caller, body.personHouseId, [JoinStatus.pending, JoinStatus.approved]),
    ),
    route('POST /base/personhouse/join/history', async (ctx, { body }) =>
      people.endLinkAsStaff(deps(ctx), ctx.caller, body.personHouseId, [JoinStatus.approved]),
    ),
    route('POST /base/personhousehistory/page/{typeId}/{buildingType}', async (ctx, { params, body }) =>
      people.listHistory(ctx.db, ctx.caller, ctx.tenant, {
        houseType: params.buildingType,
        houseId: params.typeId,
        page: body.page,
        limit: body.limit,
      }),
    ),
    route('GET /base/personhousehistory/info/{id}', async (ctx, { params }) =>
      people.getHistory(ctx.db, ctx.caller, ctx.tenant, params.id),
    ),
  ],
};
