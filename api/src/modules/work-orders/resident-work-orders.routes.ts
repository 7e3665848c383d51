import { route, type ApiModule } from '../../http/define-route';
import { residentDeps as deps } from '../resident/resident-api';
import * as resident from './resident-work-orders.service';

/** The resident's side of complaints and event work orders (DESIGN §5): report, reply, rate. */
export const residentWorkOrdersModule: ApiModule = {
  name: 'resident-work-orders',
  routes: [
    route('POST /app/complain/save', async (ctx, { body }) => resident.saveComplaint(deps(ctx), body)),
    route('POST /app/eventOrder/save', async (ctx, { body }) => resident.saveEventOrder(deps(ctx), body)),
    route('POST /app/complain/reply', async (ctx, { body }) => resident.replyAsResident(deps(ctx), 'complaint', body)),
    route('POST /app/eventOrder/reply', async (ctx, { body }) =>
      resident.replyAsResident(deps(ctx), 'eventOrder', body),
    ),
    route('POST /app/complain/rate', async (ctx, { body }) => resident.rateAsResident(deps(ctx), 'complaint', body)),
    route('POST /app/eventOrder/rate', async (ctx, { body }) => resident.rateAsResident(deps(ctx), 'eventOrder', body)),
  ],
};
