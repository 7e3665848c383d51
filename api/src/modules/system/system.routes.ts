import { z } from 'zod';
import { defineRoute, type ApiModule } from '../../http/define-route';
import { AppError } from '../../http/app-error';
import { buildOpenApi } from './openapi';

/** Health and the OpenAPI document. `modules` is read lazily so the document lists every module. */
export function systemModule(allModules: () => ApiModule[], ping: () => Promise<boolean>): ApiModule {
  return {
    name: 'system',
    routes: [
      defineRoute({
        method: 'get',
        path: '/health',
        permission: 'public',
        summary: 'Health: 200 when the database answers, 503 otherwise',
        response: z.object({ status: z.literal('up') }),
        handler: async () => {
          const up = await ping().catch(() => false);
          if (!up) throw new AppError(503, 'errors.apiUnavailable');
          return { status: 'up' as const };
        },
      }),
      defineRoute({
        method: 'get',
        path: '/openapi.json',
        permission: 'public',
        summary: 'This OpenAPI 3 document (not an envelope)',
        answer: 'raw',
        handler: async (ctx) => {
          ctx.res.json(buildOpenApi(allModules()));
        },
      }),
    ],
  };
}
