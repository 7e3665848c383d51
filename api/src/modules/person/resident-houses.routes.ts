import { route, type ApiModule } from '../../http/define-route';
import { residentDeps as deps } from '../resident/resident-api';
import * as resident from './resident-houses.service';

/** The resident's own houses (DESIGN §5): the list, and joining one by invite code. */
export const residentHousesModule: ApiModule = {
  name: 'resident-houses',
  routes: [
    route('GET /app/house/list', async (ctx) => resident.listHouses(deps(ctx))),
    route('POST /app/personhouse/join', async (ctx, { body }) => resident.joinHouse(deps(ctx), body)),
  ],
};
