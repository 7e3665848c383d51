import { route, type ApiModule } from '../../http/define-route';
import { listOwnerChanges } from './owner-changes.service';

/** Owner replacements for the dashboard (SPEC §1): the owners who left a house, newest first. */
export const ownerChangesModule: ApiModule = {
  name: 'owner-changes',
  routes: [
    route('POST /base/personhousehistory/owners', async (ctx, { body }) =>
      listOwnerChanges(ctx.db, ctx.caller, ctx.tenant, body.limit),
    ),
  ],
};
