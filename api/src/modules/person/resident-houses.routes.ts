import { route, type ApiModule } from '../../http/define-route';
import { residentDeps as deps } from '../resident/resident-api';
import * as resident from './resident-houses.service';

/** The resident's own houses (DESIGN §5): the list, joining by invite code, leaving, requests, members. */
export const residentHousesModule: ApiModule = {
  name: 'resident-houses',
  routes: [
    route('GET /app/house/list', async (ctx) => resident.listHouses(deps(ctx))),
    route('POST /app/personhouse/join', async (ctx, { body }) => resident.joinHouse(deps(ctx), body)),
    route('GET /app/personhouse/requests', async (ctx) => resident.listOwnRequests(deps(ctx))),
    route('POST /app/personhouse/leave', async (ctx, { body }) => resident.leaveHouse(deps(ctx), body)),
    route('POST /app/personhouse/member/list', async (ctx, { body }) => resident.listOwnMembers(deps(ctx), body)),
    route('POST /app/personhouse/member/add', async (ctx, { body }) => resident.addOwnMember(deps(ctx), body)),
    route('POST /app/personhouse/member/remove', async (ctx, { body }) => resident.removeOwnMember(deps(ctx), body)),
  ],
};
