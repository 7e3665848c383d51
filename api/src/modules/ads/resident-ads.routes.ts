import { route, type ApiModule } from '../../http/define-route';
import { residentDeps } from '../resident/resident-api';
import { residentAds } from './resident-ads.service';

/** The resident app's ads (DESIGN §5, issue 33). */
export const residentAdModule: ApiModule = {
  name: 'resident-ads',
  routes: [route('GET /app/ad/list', async (ctx) => residentAds(residentDeps(ctx), ctx.tenant.housingEstateId))],
};
