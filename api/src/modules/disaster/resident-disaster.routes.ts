import { route, type ApiModule } from '../../http/define-route';
import { residentDeps as deps } from '../resident/resident-api';
import * as resident from './resident-disaster.service';

/** The resident's side of SOS help calls, disaster warnings and declarations (DESIGN §5). */
export const residentDisasterModule: ApiModule = {
  name: 'resident-disaster',
  routes: [
    route('POST /app/sos/help', async (ctx, { body }) => resident.sosHelpCall(deps(ctx), body)),
    route('POST /app/disaster/reply', async (ctx, { body }) => resident.replyToDisaster(deps(ctx), body)),
    route('POST /app/disaster/declare', async (ctx, { body }) => resident.declareDisaster(deps(ctx), body)),
    route('GET /app/disaster/list', async (ctx) => resident.listMyWarnings(deps(ctx))),
    route('POST /app/disaster/read', async (ctx, { body }) => resident.readWarning(deps(ctx), body.id)),
  ],
};
