import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CliError, EXIT } from '../exit-codes';
import { parseApplyFile } from './apply-file';

/** The usage error a file is refused with (exit 2), as its lines. */
function refusal(text: string): string[] {
  try {
    parseApplyFile(text, 'hookrail.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).code).toBe(EXIT.usage);
    return (err as CliError).message.split('\n');
  }
  throw new Error('the file was accepted');
}

describe('parseApplyFile', () => {
  it('reads the four sections as the API’s create bodies, subscriptions naming endpoint and source', () => {
    const file = parseApplyFile(
      `
event_types:
  - name: invoice.paid
    description: An invoice was paid
    json_schema: { type: object, required: [invoice] }
sources:
  - name: stripe
    type: http
endpoints:
  - name: billing
    url: https://billing.example.com/hooks
    http_timeout: 10
subscriptions:
  - name: billing-invoices
    endpoint: billing
    source: stripe
    filter_config: { event_types: ["invoice.*"] }
    retry_config: { type: linear, duration: 30s, retry_count: 3 }
`,
      'hookrail.yaml',
    );
    expect(file.endpoints).toEqual([
      { name: 'billing', url: 'https://billing.example.com/hooks', http_timeout: 10 },
    ]);
    expect(file.subscriptions?.[0]).toMatchObject({ endpoint: 'billing', source: 'stripe' });
    expect(file.event_types?.[0].json_schema).toEqual({ type: 'object', required: ['invoice'] });
  });

  it("takes docs/cli.md's example file", () => {
    const doc = readFileSync(path.resolve(__dirname, '../../../../docs/cli.md'), 'utf8');
    const example = /```yaml\n(# hookrail\.yaml[\s\S]*?)\n```/.exec(doc)![1];
    const file = parseApplyFile(example, 'docs/cli.md');
    expect(Object.keys(file)).toEqual(['event_types', 'sources', 'endpoints', 'subscriptions']);
    expect(file.subscriptions?.[0]).toMatchObject({ endpoint: 'billing-service', source: 'stripe' });
  });

  it('refuses YAML that does not parse, naming the line', () => {
    expect(refusal('endpoints:\n  - name: a\n   url: x\n')).toEqual([
      'hookrail.yaml is not valid YAML:',
      expect.stringMatching(/at line 3, column \d+/),
    ]);
    expect(refusal('endpoints: []\nendpoints: []\n')[1]).toContain('Map keys must be unique');
  });

  it('names each wrong place: an unknown field with the known ones, a bad value, a missing field', () => {
    const lines = refusal(`
endpoints:
  - name: ok
    url: https://ok.example.com
  - name: a
    urll: https://typo.example.com
    http_timeout: "5"
  - name: b
    url: ftp://b.example.com
subscriptions:
  - name: s
    endpoint_id: e1
    retry_config: { type: fast }
`);
    expect(lines[0]).toBe('hookrail.yaml:');
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}endpoints\[1\]\.urll: unknown field \(known: name, type, url, /),
    );
    expect(lines).toContain('  endpoints[1].http_timeout: must be integer');
    expect(lines).toContain('  endpoints[2].url: must match pattern "^https?://"');
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}subscriptions\[0\]\.endpoint_id: unknown field/),
    );
    expect(lines).toContain('  subscriptions[0].endpoint: is required');
    expect(lines).toContain('  subscriptions[0].retry_config.type: must be one of linear, exponential');
  });

  it('refuses response-only fields, unknown sections, an empty file and a name given twice', () => {
    expect(refusal('event_types:\n  - name: a\n    uid: x\n')[1]).toMatch(
      /^ {2}event_types\[0\]\.uid: unknown field/,
    );
    expect(refusal('webhooks: []\n')[1]).toMatch(
      /^ {2}webhooks: unknown field \(known: event_types, sources, endpoints, subscriptions\)/,
    );
    expect(refusal('')[1]).toBe(
      '  empty: give one or more of event_types, sources, endpoints, subscriptions',
    );
    expect(refusal('sources:\n  - { name: s, type: http }\n  - { name: s, type: http }\n')).toEqual([
      'hookrail.yaml:',
      `  sources[1].name: "s" is also sources[0]'s name`,
    ]);
  });
});
