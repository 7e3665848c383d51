import { route, type ApiModule } from '../../http/define-route';
import { deleteAds, getAd, pageAds, saveAd, sortAds, switchAd } from './ads.service';

/** The ads of the resident app, managed by the estate's staff (issue 33, shared/src/api/ads.ts). */
export const adModule: ApiModule = {
  name: 'ads',
  routes: [
    route('POST /base/ad/page', async (ctx, { body }) => pageAds(ctx, body)),
    route('GET /base/ad/info/{id}', async (ctx, { params }) => getAd(ctx, params.id)),
    route('POST /base/ad/saveorupdate', async (ctx, { body }) => saveAd(ctx, body)),
    route('POST /base/ad/delete', async (ctx, { body }) => deleteAds(ctx, body.adIds)),
    route('POST /base/ad/sort', async (ctx, { body }) => sortAds(ctx, body.adIds)),
    route('POST /base/ad/switch', async (ctx, { body }) => switchAd(ctx, body.adId, body.enabled)),
  ],
};
