import { endpointCreateBody } from '@hookrail/api-contract';
import { createEventBody } from '@hookrail/api-contract';
import { sourceCreateBody } from '@hookrail/api-contract';
import { subscriptionCreateBody } from '@hookrail/api-contract';
import { documentUnsetFields, dropUnsetFields } from './unset-fields';
import { acceptsEmptyString, validate } from './validator';

const drop = (body: unknown, schema: Record<string, unknown>) =>
  dropUnsetFields(body, schema, acceptsEmptyString);

describe('dropUnsetFields: null and "" from Convoy clients mean "not set"', () => {
  it('drops null fields at every declared level, keeps set ones', () => {
    const out = drop(
      {
        name: 'e',
        url: 'https://x.test/h',
        advanced_signatures: null,
        authentication: null,
        support_email: '',
        slack_webhook_url: '',
        owner_id: '',
        description: '',
        is_disabled: false,
      },
      endpointCreateBody,
    );
    // description may be empty: "" is a value there, not "unset"
    expect(out).toEqual({ name: 'e', url: 'https://x.test/h', description: '', is_disabled: false });
  });

  it('drops "" for enum-valued fields (source provider) and null sub-objects of a verifier', () => {
    const out = drop(
      {
        name: 's',
        type: 'http',
        provider: '',
        is_disabled: false,
        verifier: { type: 'noop', hmac: null, basic_auth: null, api_key: null },
      },
      sourceCreateBody,
    );
    expect(out).toEqual({ name: 's', type: 'http', is_disabled: false, verifier: { type: 'noop' } });
    expect(() => validate(sourceCreateBody, out)).not.toThrow();
  });

  it('descends into nested objects (filter_config.filter) and leaves free-form JSON alone', () => {
    const sub = drop(
      {
        name: 'x',
        endpoint_id: 'e1',
        source_id: '',
        alert_config: null,
        retry_config: null,
        filter_config: { event_types: null, filter: { body: null, headers: null } },
      },
      subscriptionCreateBody,
    );
    expect(sub).toEqual({ name: 'x', endpoint_id: 'e1', filter_config: { filter: {} } });

    const event = drop(
      {
        endpoint_id: 'e1',
        event_type: 't',
        idempotency_key: '',
        custom_headers: null,
        data: { a: null, b: '' },
      },
      createEventBody,
    );
    expect(event).toEqual({ endpoint_id: 'e1', event_type: 't', data: { a: null, b: '' } });
  });

  it('still leaves wrong types and unknown fields for the schema to refuse', () => {
    const out = drop(
      { name: 'e', url: 'https://x.test', http_timeout: '10', colour: null, rate_limit: false },
      endpointCreateBody,
    );
    expect(out).toEqual({
      name: 'e',
      url: 'https://x.test',
      http_timeout: '10',
      colour: null,
      rate_limit: false,
    });
    expect(() => validate(endpointCreateBody, out)).toThrow(/http_timeout|colour|rate_limit/);
    try {
      validate(endpointCreateBody, out);
    } catch (err) {
      const fields = (err as { details?: { errors: { field: string }[] } }).details?.errors.map(
        (e) => e.field,
      );
      expect(fields).toEqual(expect.arrayContaining(['http_timeout', 'colour', 'rate_limit']));
    }
  });

  it('a required field sent as null is reported as missing', () => {
    expect(() =>
      validate(endpointCreateBody, drop({ name: null, url: 'https://x.test' }, endpointCreateBody)),
    ).toThrow('invalid request body: name is required');
  });

  it('leaves non-object bodies and arrays of plain values as they are', () => {
    expect(drop(null, endpointCreateBody)).toBeNull();
    expect(drop([1, null], { type: 'array', items: { type: 'integer' } })).toEqual([1, null]);
  });
});

describe('documentUnsetFields: the OpenAPI request schema states the same rule', () => {
  it('widens declared fields with null, and "" where the field refuses it, recursively', () => {
    const doc = documentUnsetFields(sourceCreateBody, acceptsEmptyString) as {
      properties: Record<string, { anyOf: Record<string, unknown>[] }>;
    };
    expect(doc.properties.provider.anyOf).toEqual(
      expect.arrayContaining([
        { type: 'null', description: 'not set' },
        { const: '', description: 'not set' },
      ]),
    );
    expect(doc.properties.name.anyOf).toContainEqual({ const: '', description: 'not set' });
    // the widened schema accepts what the normaliser removes, and still refuses wrong types
    const body = { name: 's', type: 'http', provider: '', verifier: { type: 'noop', hmac: null } };
    expect(() => validate(doc, body)).not.toThrow();
    expect(() => validate(doc, { ...body, is_disabled: 'no' })).toThrow('is_disabled');
    expect(() => validate(doc, { ...body, colour: null })).toThrow('colour');
  });
});

describe('acceptsEmptyString', () => {
  it.each([
    [{ type: 'string' }, true],
    [{ type: 'string', maxLength: 10 }, true],
    [{ type: ['string', 'null'] }, true],
    [{ anyOf: [{ type: 'string' }, { type: 'null' }] }, true],
    [{}, true],
    [{ type: 'string', minLength: 1 }, false],
    [{ type: 'string', enum: ['a', 'b'] }, false],
    [{ type: 'string', format: 'uri' }, false],
    [{ anyOf: [{ type: 'integer' }, { type: 'null' }] }, false],
    [{ type: 'integer' }, false],
    [{ type: ['integer', 'null'] }, false],
    [{ type: 'object', properties: { a: { type: 'string' } } }, false],
    [{ type: 'array', items: { type: 'string' } }, false],
  ])('%j → %s', (schema, expected) => {
    expect(acceptsEmptyString(schema)).toBe(expected);
  });
});
