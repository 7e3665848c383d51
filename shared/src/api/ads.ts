import { z } from 'zod';
import { isDay, readAdLink, RESIDENT_APP_SCREENS } from '../estate-setup';
import {
  IdListSchema,
  IdParamsSchema,
  IdSchema,
  intSchema,
  KeywordSchema,
  listPageSchema,
  PageBodySchema,
} from './common';
import { defineEndpoints } from './endpoint';

// Ads of the resident app (SPEC §2 "ad settings" and its ads dialog, §3 ads: image, detail image,
// jump link; §5: the three are required), issue 33. Staff of the estate with ad:list list, add,
// edit, delete, reorder and switch them on or off; residents' apps read the estate's ads that are
// on and in their period (`GET /app/ad/list`), in order.

/** An upload path of a picture (`/upload/files/ad/…`, the `/api` prefix of the gateway accepted). */
const picture = z.string().trim().min(1).max(500);
const day = z.string().trim().refine(isDay, { message: 'ads.errors.day' });
const link = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((v) => readAdLink(v) !== null, { message: 'ads.errors.link' });

/** An ad as staff see it. `startDate` / `endDate`: days of the estate's time zone, both included; null = open. */
export const AdRowSchema = z.object({
  adId: z.number(),
  title: z.string(),
  image: z.string(),
  detailImage: z.string().nullable(),
  link: z.string().nullable(),
  sort: z.number(),
  enabled: z.boolean(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  /** What residents see now: on, and today (in the estate's time zone) is inside the period. */
  showing: z.boolean(),
  /** 'scheduled' (its period has not begun), 'ended' (it is over), 'off', or 'showing'. */
  state: z.enum(['showing', 'scheduled', 'ended', 'off']),
  updatedAt: z.string(),
});
export type AdRow = z.infer<typeof AdRowSchema>;

export const AdPageSchema = PageBodySchema.extend({
  keyword: KeywordSchema,
  /** Only those residents see now (true) or those they do not (false). */
  showing: z.boolean().optional(),
});

/**
 * A new ad (no `adId`) or a change of one: picture, detail picture and jump link required (SPEC
 * §5). Pictures are images the estate's staff uploaded (`POST /upload/uploadimage/ad`), or the
 * ad's own. A new ad goes to the end of the order unless `sort` says where.
 */
export const AdSaveSchema = z
  .object({
    adId: IdSchema.optional(),
    title: z.string().trim().min(1).max(100),
    image: picture,
    detailImage: picture,
    link,
    sort: intSchema(0, 1_000_000).optional(),
    startDate: day.nullable().optional(),
    endDate: day.nullable().optional(),
    enabled: z.boolean().default(true),
  })
  .refine((a) => !a.startDate || !a.endDate || a.endDate >= a.startDate, {
    message: 'ads.errors.period',
    path: ['endDate'],
  });
export type AdSave = z.infer<typeof AdSaveSchema>;

export const AdIdsSchema = z.object({ adIds: IdListSchema });
export const AdSwitchSchema = z.object({ adId: IdSchema, enabled: z.boolean() });

/** An ad as the resident app shows it. `screen`: the app screen a link `app://<screen>` opens. */
export const ResidentAdSchema = z.object({
  adId: z.number(),
  title: z.string(),
  image: z.string(),
  detailImage: z.string().nullable(),
  link: z.string().nullable(),
  linkType: z.enum(['web', 'app']).nullable(),
  screen: z.enum(RESIDENT_APP_SCREENS).nullable(),
});
export type ResidentAd = z.infer<typeof ResidentAdSchema>;

/** The most ads the resident app is given at once. */
export const RESIDENT_AD_LIMIT = 50;

export const adEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /base/ad/page': {
    permission: 'ad:list',
    summary:
      "The estate's ads in their order (sort, then id), paged, with whether residents see each now (on and inside its period, counted in the estate's days). Filters: keyword (title or link), showing.",
    body: AdPageSchema,
    response: listPageSchema(AdRowSchema),
  },
  'GET /base/ad/info/{id}': {
    permission: 'ad:list',
    summary: 'One ad of the estate (404 for another estate’s).',
    params: IdParamsSchema,
    response: AdRowSchema,
  },
  'POST /base/ad/saveorupdate': {
    permission: 'ad:list',
    summary:
      'Adds an ad (without adId) or changes one. Required: title, image, detailImage (pictures uploaded by the estate’s staff through /upload/uploadimage/ad, checked by their bytes there) and link: http:// or https:// with a host, or app://<screen> of the resident app (home, announcements, complaint, repair, sos, warnings, houses, join-house, chat); javascript:, data: and the like are refused. startDate/endDate (yyyy-MM-dd, days of the estate, both included, either may be left open).',
    body: AdSaveSchema,
    response: AdRowSchema,
    successMessage: 'ads.saved',
  },
  'POST /base/ad/delete': {
    permission: 'ad:list',
    summary: 'Deletes the selected ads (at least one; SPEC §5 "Select at least one item").',
    body: AdIdsSchema,
    response: z.object({ deleted: z.number() }),
    successMessage: 'ads.deleted',
  },
  'POST /base/ad/sort': {
    permission: 'ad:list',
    summary:
      'Reorders ads: the listed ads take the places they hold among themselves, in the order given; the estate’s other ads keep theirs. Two neighbours listed the other way round swap (move up / down, across pages too); a page listed in a new order is that page reordered. 404 when an id is not an ad of the estate.',
    body: AdIdsSchema,
    response: z.null(),
  },
  'POST /base/ad/switch': {
    permission: 'ad:list',
    summary: 'Switches one ad on or off.',
    body: AdSwitchSchema,
    response: AdRowSchema,
  },
  'GET /app/ad/list': {
    permission: 'authenticated',
    summary: `Resident API (DESIGN §5), resident token only. The ads of the caller's estate that are on and in their period (the estate's today), in order, at most ${RESIDENT_AD_LIMIT}. linkType 'web' opens link in a browser view, 'app' opens the app's screen.`,
    response: z.array(ResidentAdSchema),
  },
});
