import { Type, type TSchema } from '@sinclair/typebox';
import { SURFACE_PREFIX, type Operation } from '@hookrail/api-contract';
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

const SECURITY: Partial<Record<Operation['auth'], Record<string, string[]>[]>> = {
  admin: [{ bearer: [] }],
  project: [{ bearer: [] }],
  portal: [{ portalToken: [] }, { portalTokenQuery: [] }],
};

/**
 * The OpenAPI 3.1 document, built from the contract's operations the routers validate with: the
 * management API under the document's server (`/api`), the portal API under its own (`/portal-api`).
 */
export function buildOpenApi(
  operations: readonly Operation[],
  info: { version: string; gatewayUrl: string },
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of operations) {
    const path = openApiPath(r.surface === 'api' ? r.path : `${SURFACE_PREFIX[r.surface]}${r.path}`);
    // Relative to where the document is served: the gateway's root, whatever address reached it.
    if (r.surface !== 'api')
      paths[path] ??= {
        servers: [{ url: '/', description: "the gateway's root (the path names its mount)" }],
      };
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
        content: r.stream
          ? { [r.stream]: { schema: data } }
          : { 'application/json': { schema: envelope(data) } },
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
      security: SECURITY[r.auth] ?? [],
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
        '(a project key hr_<id>.<secret>, or the instance admin key). The portal API (tag Portal, under ' +
        "/portal-api) takes a portal link's token instead.",
    },
    servers: [{ url: `${info.gatewayUrl}/api` }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'a project API key, or the instance admin key',
        },
        portalToken: { type: 'http', scheme: 'bearer', description: "a portal link's token" },
        portalTokenQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'token',
          description: "a portal link's token, as in the link's url",
        },
      },
      schemas: { Error: errorEnvelope },
    },
  };
}
