import { z } from 'zod';
import { defineEndpoints } from './endpoint';

export const systemEndpoints = /* @__PURE__ */ defineEndpoints({
  'GET /health': {
    permission: 'public',
    summary: 'Health: 200 when the database answers, 503 otherwise',
    response: z.object({ status: z.literal('up') }),
  },
  'GET /openapi.json': {
    permission: 'public',
    summary: 'This OpenAPI 3 document (not an envelope)',
    answer: 'raw',
    response: z.looseObject({ openapi: z.string() }),
  },
});
