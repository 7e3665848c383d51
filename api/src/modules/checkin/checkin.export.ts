import type { z } from 'zod';
import type { CheckinMonthPageSchema, CheckinPunchPageSchema } from '@pm/shared';
import type { AuthedContext } from '../../http/request-context';
import { stream } from '../property/property-export.service';
import * as repo from './checkin.repository';
import { ensureDays } from './checkin.service';
import { addDays } from './checkin-rules';

// Excel exports of staff check-in (issue 32), streamed a chunk at a time like the house lists'.

const page = (offset: number, limit: number) => ({ page: Math.floor(offset / limit) + 1, limit });

/** POST /base/checkin/punch/export: the punch records with the list's filters. */
export async function exportPunches(ctx: AuthedContext, body: z.output<typeof CheckinPunchPageSchema>): Promise<void> {
  const { timeZone } = await repo.estateClock(ctx.db, ctx.tenant.housingEstateId);
  const time = new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' });
  return stream(
    ctx,
    'punches.xlsx',
    ['person', 'department', 'kind', 'time', 'place', 'source', 'countedFor'].map((k) => ctx.t(`checkin.columns.${k}`)),
    (limit, offset) => repo.pagePunches(ctx.db, ctx.tenant, timeZone, { ...body, ...page(offset, limit) }),
    (r) => [
      r.personName,
      r.departmentName ?? '',
      ctx.t(`checkin.kinds.${r.kind}`),
      time.format(new Date(r.at)),
      ctx.t(r.inPlace ? 'checkin.place.in' : 'checkin.place.out', { distance: r.distanceMetres ?? 0 }),
      ctx.t(`checkin.sources.${r.source}`),
      r.day ?? '',
    ],
  );
}

/** POST /base/checkin/month/export: the month's totals per person. */
export async function exportMonth(ctx: AuthedContext, body: z.output<typeof CheckinMonthPageSchema>): Promise<void> {
  const first = `${body.month}-01`;
  await ensureDays(ctx.db, ctx.tenant, first, addDays(`${addDays(first, 31).slice(0, 7)}-01`, -1));
  return stream(
    ctx,
    `check-in-${body.month}.xlsx`,
    [
      ctx.t('checkin.columns.person'),
      ctx.t('checkin.columns.department'),
      ctx.t('checkin.columns.shift'),
      ...['late', 'lateMinutes', 'leftEarly', 'missingIn', 'missingOut', 'absent'].map((k) =>
        ctx.t(`checkin.totals.${k}`),
      ),
    ],
    (limit, offset) => repo.pageMonth(ctx.db, ctx.tenant, { ...body, ...page(offset, limit) }),
    (r) => [
      r.personName,
      r.departmentName ?? '',
      r.shifts,
      r.late,
      r.lateMinutes,
      r.leftEarly,
      r.missingIn,
      r.missingOut,
      r.absent,
    ],
  );
}
