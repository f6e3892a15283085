import { schemaFileName, schemasFromCrds, schemasFromOpenApi, strict } from './kube-schemas';

describe('kube-schemas', () => {
  it('names files the way kubeconform looks them up', () => {
    expect(schemaFileName({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe(
      'deployment-apps-v1.json',
    );
    expect(schemaFileName({ group: '', version: 'v1', kind: 'Service' })).toBe('service-v1.json');
    expect(schemaFileName({ group: 'networking.k8s.io', version: 'v1', kind: 'Ingress' })).toBe(
      'ingress-networking-v1.json',
    );
  });

  it('closes objects that list properties, leaves maps and preserved fields open, widens int-or-string', () => {
    expect(
      strict({
        type: 'object',
        properties: {
          port: { type: 'string', format: 'int-or-string' },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          raw: { type: 'object', properties: { a: {} }, 'x-kubernetes-preserve-unknown-fields': true },
        },
      }),
    ).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        port: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        raw: { type: 'object', properties: { a: {} }, 'x-kubernetes-preserve-unknown-fields': true },
      },
    });
  });

  it('gives each kind its own schema with only the definitions it reaches', () => {
    const out = schemasFromOpenApi({
      definitions: {
        'x.Thing': {
          type: 'object',
          properties: { spec: { $ref: '#/definitions/x.Spec' } },
          'x-kubernetes-group-version-kind': [{ group: 'things.example.com', version: 'v1', kind: 'Thing' }],
        },
        'x.Spec': {
          type: 'object',
          properties: { size: { $ref: '#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity' } },
        },
        'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: 'string' },
        'x.Unrelated': { type: 'object', properties: {} },
      },
    });
    expect([...out.keys()]).toEqual(['thing-things-v1.json']);
    const schema = out.get('thing-things-v1.json') as { definitions: Record<string, unknown> };
    expect(Object.keys(schema.definitions)).toEqual([
      'io.k8s.apimachinery.pkg.api.resource.Quantity',
      'x.Spec',
    ]);
    expect(schema.definitions['io.k8s.apimachinery.pkg.api.resource.Quantity']).toEqual({
      oneOf: [{ type: 'string' }, { type: 'number' }],
    });
  });

  it('reads every version of a CRD', () => {
    const out = schemasFromCrds(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  group: keda.sh
  names: { kind: ScaledObject }
  versions:
    - name: v1alpha1
      schema: { openAPIV3Schema: { type: object, properties: { spec: { type: object, properties: { x: { type: integer } } } } } }
`);
    expect(out.get('scaledobject-keda-v1alpha1.json')).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        spec: { type: 'object', additionalProperties: false, properties: { x: { type: 'integer' } } },
      },
    });
  });
});
