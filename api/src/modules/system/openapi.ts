import { z } from 'zod';
import * as shared from '@pm/shared';
import type { ApiModule, ApiRoute } from '../../http/define-route';

type JsonSchema = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';
const ref = (id: string) => ({ $ref: `${COMPONENTS}${id}` });

/** The error answers every operation may give, each an envelope (SPEC §7; 413 body too large, 428 captcha). */
const ERROR_STATUSES: Record<string, string> = {
  '400': 'Bad request: validation failed (msg names the field)',
  '401': 'No token, or an invalid or expired one',
  '403': 'The caller lacks the permission',
  '404': "Not found, or not in the caller's company and estate",
  '409': 'Conflict: the state changed (e.g. already dealt with) or a duplicate',
  '413': 'Body too large',
  '428': 'Captcha required (sign-in)',
  '429': 'Too many requests (data.retryAfter or data.retryAfterSeconds, Retry-After header)',
};

const ENVELOPE: JsonSchema = {
  type: 'object',
  description:
    'Every JSON answer but the raw ones: code 200 = success, else the HTTP status; msg in the `lang` language',
  properties: { code: { type: 'integer' }, msg: { type: 'string' }, data: {} },
  required: ['code', 'msg'],
};

const CONTENT_TYPE = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
};

/** `POST /complain/query/id/{id}` → `postComplainQueryIdById`: stable, unique, derived from the key. */
export function operationId(key: string): string {
  const [method, path] = key.split(' ');
  const words = path
    .split('/')
    .filter(Boolean)
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part);
      return param ? `By${param[1][0].toUpperCase()}${param[1].slice(1)}` : part;
    })
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/** A request schema as JSON Schema (input side: what a caller may send), inlined. */
function requestSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return json;
}

/**
 * Every `…Schema` the shared package exports becomes a component (ComplainRowSchema →
 * ComplainRow), and each answer not among them one of its own (`<operationId>Data`); answers
 * refer to them by $ref.
 */
function answerComponents(routes: ApiRoute[]): { schemas: Record<string, JsonSchema>; idOf: Map<z.ZodType, string> } {
  const registry = z.registry<{ id: string }>();
  const idOf = new Map<z.ZodType, string>();
  for (const [name, value] of Object.entries(shared)) {
    if (!name.endsWith('Schema') || !(value instanceof z.ZodType) || idOf.has(value)) continue;
    idOf.set(value, name.slice(0, -'Schema'.length));
  }
  for (const r of routes) if (!idOf.has(r.response)) idOf.set(r.response, `${operationId(r.key)}Data`);
  for (const [schema, id] of idOf) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `${COMPONENTS}${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  return { schemas, idOf };
}

function parametersOf(route: ApiRoute): JsonSchema[] {
  const params = route.params ? requestSchema(route.params) : undefined;
  const query = route.query ? requestSchema(route.query) : undefined;
  const props = (s?: JsonSchema) => (s?.properties ?? {}) as Record<string, JsonSchema>;
  const pathNames = [...route.key.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  return [
    ...pathNames.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: props(params)[name] ?? { type: 'string' },
    })),
    ...Object.entries(props(query)).map(([name, schema]) => ({
      name,
      in: 'query',
      required: ((query?.required as string[] | undefined) ?? []).includes(name),
      schema,
    })),
  ];
}

function operation(route: ApiRoute, dataId: string): JsonSchema {
  const success =
    route.answer === 'raw'
      ? {
          description: 'Answer written by the route itself (not an envelope)',
          content: { [route.answerContentType ?? 'application/json']: { schema: ref(dataId) } },
        }
      : {
          description: 'Envelope with the answer in data',
          content: {
            'application/json': {
              schema: {
                allOf: [ref('Envelope'), { type: 'object', properties: { data: ref(dataId) }, required: ['data'] }],
              },
            },
          },
        };
  const errors = Object.fromEntries(
    Object.keys(ERROR_STATUSES).map((status) => [status, { $ref: `#/components/responses/Error${status}` }]),
  );
  const op: JsonSchema = {
    operationId: operationId(route.key),
    summary: route.summary,
    'x-permission': route.permission,
    ...(route.staffPermission ? { 'x-staff-permission': route.staffPermission } : {}),
    security: route.permission === 'public' ? [] : [{ bearer: [] }],
    parameters: parametersOf(route),
    responses: { '200': success, ...errors },
  };
  const body = route.body ?? route.formBody;
  if (body) {
    op.requestBody = {
      required: true,
      content: { [CONTENT_TYPE[route.bodyType ?? 'json']]: { schema: requestSchema(body) } },
    };
  }
  return op;
}

/** The OpenAPI 3.1 document of every declared call, built from the same zod schemas that validate. */
export function buildOpenApi(modules: ApiModule[]): JsonSchema {
  const routes = modules.flatMap((m) => m.routes);
  const { schemas, idOf } = answerComponents(routes);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const mod of modules) {
    for (const route of mod.routes) {
      const path = route.key.split(' ')[1];
      paths[path] ??= {};
      paths[path][route.method] = { ...operation(route, idOf.get(route.response) as string), tags: [mod.name] };
    }
  }
  const responses = Object.fromEntries(
    Object.entries(ERROR_STATUSES).map(([status, description]) => [
      `Error${status}`,
      { description, content: { 'application/json': { schema: ref('Envelope') } } },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Property Management System api',
      version: '0.1.0',
      description:
        'Every JSON answer is an envelope { code, msg, data } (code 200 = success); errors carry the HTTP status in code and a message in the language of the `lang` header. x-permission names the permission code a route needs (public: none, authenticated: any valid token).',
    },
    servers: [
      { url: '/', description: 'The api directly' },
      { url: '/api', description: 'Through the gateway (the console and the apps)' },
    ],
    tags: modules.map((m) => ({ name: m.name })),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Envelope: ENVELOPE, ...schemas },
      responses,
    },
    paths,
  };
}
