import { listPage, readAdLink, type AdRow, type AdSave } from '@pm/shared';
import type { z } from 'zod';
import type { AdPageSchema } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { AppError } from '../../http/app-error';
import type { AuthedContext, TenantScope } from '../../http/request-context';
import { estateStaffPictures } from '../estate-settings/estate-settings.repository';
import { uploadPath } from '../estate-settings/estate-settings.service';
import * as repo from './ads.repository';

/** POST /base/ad/page */
export async function pageAds(ctx: AuthedContext, body: z.output<typeof AdPageSchema>) {
  const { rows, total } = await repo.listAds(ctx.db, ctx.tenant, body);
  return listPage(rows, total, body);
}

/** GET /base/ad/info/{id} */
export async function getAd(ctx: AuthedContext, id: number): Promise<AdRow> {
  const row = await repo.findAd(ctx.db, ctx.tenant, id);
  if (!row) throw AppError.notFound();
  return row;
}

/**
 * The ad's two pictures as stored paths: each an image the estate's staff uploaded (the upload
 * service checked its bytes), or one the ad already shows.
 */
async function picturesFor(db: DbOrTx, tenant: TenantScope, body: AdSave, kept: string[]): Promise<[string, string]> {
  const image = uploadPath(body.image);
  const detailImage = uploadPath(body.detailImage);
  if (!image || !detailImage) throw AppError.badRequest('ads.errors.picture');
  const fresh = [image, detailImage].filter((p) => !kept.includes(p));
  if (!(await estateStaffPictures(db, tenant, fresh))) throw AppError.badRequest('ads.errors.picture');
  return [image, detailImage];
}

/** POST /base/ad/saveorupdate: a new ad (no adId, at the end of the order unless `sort` says) or a change. */
export async function saveAd(ctx: AuthedContext, body: AdSave): Promise<AdRow> {
  // The schema checked the link; what is stored is exactly what the app is given.
  if (!readAdLink(body.link)) throw AppError.badRequest('ads.errors.link');
  const id = await ctx.db.transaction(async (tx) => {
    const kept = body.adId === undefined ? [] : await repo.picturesOf(tx, ctx.tenant, body.adId);
    if (kept === null) throw AppError.notFound();
    const [image, detailImage] = await picturesFor(tx, ctx.tenant, body, kept);
    const values: repo.AdValues = {
      title: body.title,
      image,
      detailImage,
      link: body.link.trim(),
      enabled: body.enabled,
      startDate: body.startDate ?? null,
      endDate: body.endDate ?? null,
    };
    if (body.adId === undefined) return repo.insertAd(tx, ctx.tenant, values, body.sort);
    await repo.updateAd(tx, ctx.tenant, body.adId, { ...values, ...(body.sort !== undefined && { sort: body.sort }) });
    return body.adId;
  });
  return getAd(ctx, id);
}

/** POST /base/ad/delete: the estate's ads among the ids (404 when none is). */
export async function deleteAds(ctx: AuthedContext, ids: number[]): Promise<{ deleted: number }> {
  const deleted = await repo.deleteAds(ctx.db, ctx.tenant, ids);
  if (deleted === 0) throw AppError.notFound();
  return { deleted };
}

/**
 * POST /base/ad/sort: the listed ads take the places they hold among themselves, in the order
 * given; the others keep theirs. Two neighbours listed the other way round swap (moving one up
 * or down, also across pages); a whole page listed in a new order is that page reordered.
 */
export async function sortAds(ctx: AuthedContext, ids: number[]): Promise<null> {
  await ctx.db.transaction(async (tx) => {
    const current = await repo.orderedIds(tx, ctx.tenant);
    const given = [...new Set(ids)];
    if (given.some((id) => !current.includes(id))) throw AppError.notFound();
    const places = current.flatMap((id, place) => (given.includes(id) ? [place] : []));
    const next = [...current];
    places.forEach((place, k) => (next[place] = given[k]));
    await repo.writeOrder(tx, ctx.tenant, next);
  });
  return null;
}

/** POST /base/ad/switch */
export async function switchAd(ctx: AuthedContext, adId: number, enabled: boolean): Promise<AdRow> {
  if (!(await repo.updateAd(ctx.db, ctx.tenant, adId, { enabled }))) throw AppError.notFound();
  return getAd(ctx, adId);
}
