import { Type, type TSchema } from '@sinclair/typebox';
import type { Operation } from '@hookrail/api-contract';
import { documentUnsetFields } from '../http/unset-fields';
import { acceptsEmptyString } from '../http/validator';
import { pageOf } from '@hookrail/api-contract';
import { resource, str } from '@hookrail/api-contract';

const errorEnvelope = resource({
  status: Type.Literal(false),
  message: str(),
  data: resource({
    errors: Type.Array(resource({ field: str(), message: str() }), {
      minItems: 1,
      description: '`field` names the request field at fault; empty when the error is not about one field',
    }),
  }),
});

function envelope(data: TSchema) {
  return resource({ status: Type.Literal(true), message: str(), data });
}

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid body, parameters or query (data.errors names each field)',
  '401': 'Missing or unknown API key',
  '403': 'The key is valid but not for this project or operation',
  '404': 'Unknown id (including an id of another project)',
  '409': 'Conflict',
  '413': 'Body too large',
  '415': 'Content-Type is not application/json',
  '429': 'Rate limit exceeded (per API key or project): retry after the Retry-After header (seconds)',
  '503': 'The database or Kafka is unavailable: retry after the Retry-After header (seconds)',
};

/** `/v1/projects/:projectID` → `/v1/projects/{projectID}` */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** The OpenAPI 3.1 document, built from the very route specs and schemas the router validates with. */
export function buildOpenApi(routes: readonly Operation[], info: { version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = openApiPath(r.path);
    const pathParams = [...r.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: str(),
    }));
    const queryParams = Object.entries(r.query ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: false,
      // a list filter is the parameter repeated (`endpointId=a&endpointId=b`), as Convoy sends it
      ...(schema.type === 'array' && { style: 'form', explode: true }),
      schema,
    }));
    const data = r.paginated ? pageOf(r.response) : r.response;
    const responses: Record<string, unknown> = {
      [String(r.status)]: {
        description: r.message,
        content: { 'application/json': { schema: envelope(data) } },
      },
    };
    for (const [status, description] of Object.entries(ERROR_STATUSES))
      responses[status] = {
        description,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    (paths[path] ??= {})[r.method] = {
      operationId: r.operationId,
      summary: r.summary,
      tags: [r.tag],
      security: [{ bearer: [] }],
      parameters: [...pathParams, ...queryParams],
      ...(r.body && {
        requestBody: {
          required: true,
          description: 'A field sent as null, or as "" where "" is not a value of the field, is not set.',
          content: { 'application/json': { schema: documentUnsetFields(r.body, acceptsEmptyString) } },
        },
      }),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hookrail management API',
      version: info.version,
      description:
        'Envelope {status, message, data} on every response. Authenticate with "Authorization: Bearer <key>" ' +
        '(a project key hr_<id>.<secret>, or the instance admin key).',
    },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: errorEnvelope },
    },
  };
}
