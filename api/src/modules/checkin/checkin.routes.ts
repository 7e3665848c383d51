import { route, type ApiModule } from '../../http/define-route';
import { exportMonth, exportPunches } from './checkin.export';
import * as checkin from './checkin.service';

/** Staff check-in (issue 32, shared/src/api/checkin.ts): the console's calls and the staff app's. */
export const checkinModule: ApiModule = {
  name: 'checkin',
  routes: [
    route('GET /base/checkin/staff', async (ctx) => checkin.staffAndDepartments(ctx)),
    route('POST /base/checkin/rule/list', async (ctx, { body }) => checkin.listRules(ctx, body)),
    route('POST /base/checkin/rule/save', async (ctx, { body }) => checkin.saveRule(ctx, body)),
    route('POST /base/checkin/rule/delete', async (ctx, { body }) => checkin.deleteRule(ctx, body.ruleId)),
    route('GET /base/checkin/holiday/list', async (ctx) => checkin.listHolidays(ctx)),
    route('POST /base/checkin/holiday/save', async (ctx, { body }) => checkin.saveHoliday(ctx, body.day, body.name)),
    route('POST /base/checkin/holiday/delete', async (ctx, { body }) => checkin.deleteHoliday(ctx, body.day)),
    route('POST /base/checkin/punch/page', async (ctx, { body }) => checkin.pagePunches(ctx, body)),
    route('POST /base/checkin/day/page', async (ctx, { body }) => checkin.pageDays(ctx, body)),
    route('POST /base/checkin/month/page', async (ctx, { body }) => checkin.pageMonth(ctx, body)),
    route('POST /base/checkin/punch/export', async (ctx, { body }) => exportPunches(ctx, body)),
    route('POST /base/checkin/month/export', async (ctx, { body }) => exportMonth(ctx, body)),
    route('POST /base/checkin/makeup/page', async (ctx, { body }) => checkin.pageMakeups(ctx, body)),
    route('POST /base/checkin/makeup/review', async (ctx, { body }) => checkin.reviewMakeup(ctx, body)),
    route('GET /base/checkin/board', async (ctx) => checkin.board(ctx)),
    // The staff app: the caller, for themselves only.
    route('POST /app/checkin/punch', async (ctx, { body }) => checkin.punch(ctx, body)),
    route('GET /app/checkin/today', async (ctx) => checkin.myToday(ctx)),
    route('POST /app/checkin/makeup', async (ctx, { body }) => checkin.requestMakeup(ctx, body)),
  ],
};
