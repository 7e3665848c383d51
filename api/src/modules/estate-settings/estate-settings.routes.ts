import { route, type ApiModule } from '../../http/define-route';
import { estateInfo, getSettings, updateSettings } from './estate-settings.service';

/** The estate's own settings: basic set-up (issue 33, shared/src/api/estate-settings.ts). */
export const estateSettingsModule: ApiModule = {
  name: 'estate-settings',
  routes: [
    route('GET /base/estate/info', async (ctx) => estateInfo(ctx)),
    route('GET /base/estate/settings', async (ctx) => getSettings(ctx)),
    route('POST /base/estate/update', async (ctx, { body }) => updateSettings(ctx, body)),
  ],
};
