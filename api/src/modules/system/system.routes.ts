import { route, type ApiModule } from '../../http/define-route';
import { AppError } from '../../http/app-error';
import { buildOpenApi } from './openapi';

/** Health and the OpenAPI document. `modules` is read lazily so the document lists every module. */
export function systemModule(allModules: () => ApiModule[], ping: () => Promise<boolean>): ApiModule {
  return {
    name: 'system',
    routes: [
      route('GET /health', async () => {
        const up = await ping().catch(() => false);
        if (!up) throw new AppError(503, 'errors.apiUnavailable');
        return { status: 'up' as const };
      }),
      route('GET /openapi.json', async (ctx) => {
        ctx.res.json(buildOpenApi(allModules()));
      }),
    ],
  };
}
