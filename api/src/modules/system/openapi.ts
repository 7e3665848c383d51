import { z } from 'zod';
import type { ApiModule, ApiRoute } from '../../http/define-route';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType | undefined, io: 'input' | 'output'): JsonSchema | undefined {
  if (!schema) return undefined;
  try {
    return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as JsonSchema;
  } catch {
    return {};
  }
}

/** Express `:id` and `*key` (a multi-segment rest) both become OpenAPI `{name}`. */
function openApiPath(path: string): string {
  return path.replace(/[:*](\w+)/g, '{$1}');
}

const CONTENT_TYPE = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
};

function operation(route: ApiRoute): JsonSchema {
  const params = toSchema(route.params, 'input') as { properties?: Record<string, JsonSchema> } | undefined;
  const query = toSchema(route.query, 'input') as
    { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
  // Every {name} of the path is a parameter, typed by the params schema when the route has one.
  const pathNames = [...route.path.matchAll(/[:*](\w+)/g)].map((m) => m[1]);
  const parameters = [
    ...pathNames.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: params?.properties?.[name] ?? { type: 'string' },
    })),
    ...Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query?.required?.includes(name) ?? false,
      schema,
    })),
  ];
  const data = toSchema(route.response, 'output') ?? {};
  const answer =
    route.answer === 'raw'
      ? {
          description: 'Answer written by the route itself (see summary)',
          content: { 'application/json': { schema: data } },
        }
      : {
          description: 'Envelope { code, msg, data }',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { code: { type: 'integer' }, msg: { type: 'string' }, data },
                required: ['code', 'msg', 'data'],
              },
            },
          },
        };
  const op: JsonSchema = {
    summary: route.summary,
    'x-permission': route.permission,
    ...(route.staffPermission ? { 'x-staff-permission': route.staffPermission } : {}),
    security: route.permission === 'public' ? [] : [{ bearer: [] }],
    parameters,
    responses: { '200': answer, default: { description: 'Error envelope { code, msg, data }' } },
  };
  if (route.body) {
    op.requestBody = {
      required: true,
      content: { [CONTENT_TYPE[route.bodyType ?? 'json']]: { schema: toSchema(route.body, 'input') } },
    };
  }
  return op;
}

/** The OpenAPI 3 document of every declared route, built from the same zod schemas that validate. */
export function buildOpenApi(modules: ApiModule[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const mod of modules) {
    for (const route of mod.routes) {
      const p = openApiPath(route.path);
      paths[p] ??= {};
      paths[p][route.method] = { ...operation(route), tags: [mod.name] };
    }
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Property Management System api',
      version: '0.1.0',
      description:
        'Every JSON answer is an envelope { code, msg, data } (code 200 = success); errors carry the HTTP status in code and a message in the language of the `lang` header. x-permission names the permission code a route needs (public: none, authenticated: any valid token).',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
