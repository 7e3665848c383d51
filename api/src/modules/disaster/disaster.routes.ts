import { route, type ApiModule } from '../../http/define-route';
import * as disaster from './disaster.service';

/** The staff's calls of the disaster domain (shared/src/api/disaster.ts). */
export const disasterModule: ApiModule = {
  name: 'disaster',
  routes: [
    route('GET /disaster/blocks', async (ctx) => disaster.estateBlocks(ctx)),
    route('GET /disaster/sos/open', async (ctx) => disaster.openSosCalls(ctx)),
    route('GET /disaster/sos/{id}', async (ctx, { params }) => disaster.getSos(ctx, params.id)),
    route('POST /disaster/sos/{id}/acknowledge', async (ctx, { params }) => disaster.acknowledgeSos(ctx, params.id)),
    route('POST /disaster/sos/{id}/close', async (ctx, { params, body }) =>
      disaster.closeSos(ctx, params.id, body.note),
    ),
    route('POST /disaster/warn/page', async (ctx, { body }) => disaster.listWarnings(ctx, body)),
    route('POST /disaster/warn/save', async (ctx, { body }) => disaster.releaseWarning(ctx, body)),
    route('GET /disaster/warn/{id}', async (ctx, { params }) => disaster.getWarning(ctx, params.id)),
    route('POST /disaster/warn/{id}/revoke', async (ctx, { params }) => disaster.revokeWarning(ctx, params.id)),
    route('POST /disaster/warn/{id}/people', async (ctx, { params, body }) =>
      disaster.warningPeople(ctx, params.id, body),
    ),
    route('POST /disaster/warn/person/{id}/handle', async (ctx, { params, body }) =>
      disaster.handleHelpRequest(ctx, params.id, body.note),
    ),
    route('POST /disaster/declaration/page', async (ctx, { body }) => disaster.listDeclarations(ctx, body)),
    route('POST /disaster/declaration/{id}/handle', async (ctx, { params, body }) =>
      disaster.handleDeclaration(ctx, params.id, body.note),
    ),
  ],
};
