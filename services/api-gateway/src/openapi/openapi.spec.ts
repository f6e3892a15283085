import { managementOperations, portalOperations, type Operation } from '@hookrail/api-contract';
import { buildOpenApi, openApiPath } from './openapi';

const routes: Operation[] = Object.values(managementOperations);
const doc = buildOpenApi([...routes, ...Object.values(portalOperations)], {
  version: 'test',
  gatewayUrl: 'http://gateway.test',
});

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; items?: Schema };

function operation(r: (typeof routes)[number]) {
  return doc.paths[openApiPath(r.path)][r.method] as {
    parameters: { name: string; in: string; schema: unknown }[];
    requestBody?: { content: { 'application/json': { schema: Schema } } };
    responses: Record<string, { content: Record<string, { schema: Schema }> }>;
  };
}

describe('the OpenAPI document shows the schemas the router validates with', () => {
  it.each(routes.map((r) => [r.operationId, r] as const))('%s', (_id, r) => {
    const op = operation(r);
    const content = op.responses[String(r.status)].content;
    // a stream's events are documented under its media type, without the envelope
    const data = r.stream ? content[r.stream].schema : content['application/json'].schema.properties?.data;
    // the very schema objects, not copies that could drift
    if (r.paginated) expect(data?.properties?.content.items).toBe(r.response);
    else expect(data).toBe(r.response);
    for (const [name, schema] of Object.entries(r.query ?? {}))
      expect(op.parameters.find((p) => p.in === 'query' && p.name === name)?.schema).toBe(schema);
    // the body as documented: the same fields and required ones (each also documented as unset-able)
    const body = op.requestBody?.content['application/json'].schema;
    expect(Object.keys(body?.properties ?? {})).toEqual(Object.keys(r.body?.properties ?? {}));
    expect(body?.required).toEqual(r.body?.required);
  });
});

describe('the portal API is in the same document', () => {
  const portal = Object.values(portalOperations);

  it.each(portal.map((op) => [op.operationId, op] as const))('%s', (_id, op) => {
    const item = doc.paths[openApiPath(`/portal-api${op.path}`)] as Record<string, unknown>;
    expect(item.servers).toEqual([expect.objectContaining({ url: '/' })]);
    const documented = item[op.method] as {
      security: unknown;
      tags: string[];
      responses: Record<string, unknown>;
    };
    expect(documented.security).toEqual([{ portalToken: [] }, { portalTokenQuery: [] }]);
    expect(documented.tags).toEqual(['Portal']);
    expect(documented.responses[String(op.status)]).toBeDefined();
  });

  it('declares the portal token schemes', () => {
    expect(Object.keys(doc.components.securitySchemes)).toEqual([
      'bearer',
      'portalToken',
      'portalTokenQuery',
    ]);
  });
});
