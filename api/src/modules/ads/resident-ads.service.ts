import { readAdLink, RESIDENT_AD_LIMIT, type ResidentAd } from '@pm/shared';
import type { ResidentDeps } from '../resident/resident-api';
import { showingAds } from './ads.repository';

/**
 * GET /app/ad/list: the ads of the resident's estate that are on and inside their period (the
 * estate's today), in their order, with what the link opens.
 */
export async function residentAds(d: ResidentDeps, estateId: number): Promise<ResidentAd[]> {
  const rows = await showingAds(d.db, estateId, RESIDENT_AD_LIMIT);
  return rows.map((r) => {
    const target = r.link ? readAdLink(r.link) : null;
    return {
      adId: r.id,
      title: r.title,
      image: r.image,
      detailImage: r.detail_image,
      // A link stored before links were checked, and no longer valid, is not given out.
      link: target ? r.link : null,
      linkType: target?.kind ?? null,
      screen: target?.kind === 'app' ? target.screen : null,
    };
  });
}
