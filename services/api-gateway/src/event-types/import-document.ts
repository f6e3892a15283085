import { parse as parseYaml } from 'yaml';
import { EVENT_TYPE_LIMITS } from '@hookrail/api-contract';
import { ValidationError } from '@hookrail/domain';

/**
 * Reads the event types an OpenAPI or AsyncAPI document declares. Nothing here is stored or
 * compiled: the caller checks each schema and example as it would a created type's. The document
 * is user input, so every step refuses with a 400 naming where in `spec` the problem is, and
 * references are resolved inside the document only (`#/…`; nothing is fetched).
 *
 * - OpenAPI 3.1 (and 3.0): each entry of `webhooks` (and of the `x-webhooks` extension) is a type
 *   named by its key; its operation (`post`, else the first) gives the description (`description`,
 *   else `summary`), the category (first tag), `deprecated`, and its JSON request body the schema
 *   of `data` and the example. OpenAPI 3.0 schemas are rewritten to draft 2020-12 (`nullable`,
 *   boolean `exclusiveMinimum`/`exclusiveMaximum`).
 * - AsyncAPI 2.x: the messages of each channel's `subscribe` operation (what the application
 *   sends); AsyncAPI 3.x: the messages of each `send` operation. A message is named by its `name`,
 *   else `messageId`, else its key; `payload` is the schema of `data` and the first example's
 *   `payload` the example. Draft-07 `definitions` and array `items` are rewritten to 2020-12.
 *
 * A schema's references to the rest of the document (`#/components/schemas/…`) are copied into
 * the schema's `$defs`, so each stored schema stands alone.
 */
interface DeclaredType {
  name: string;
  /** Where in `spec` the type is declared (error messages). */
  at: string;
  description: string;
  category: string;
  deprecated: boolean;
  schema: Record<string, unknown> | null;
  schemaAt: string;
  /** undefined: the document gives none. */
  example: unknown;
  exampleAt: string;
}

type Json = Record<string, unknown>;
type Dialect = 'oas30' | 'oas31' | 'draft07';

const MAX_HOISTED = 500;
const METHODS = ['post', 'put', 'patch', 'get', 'delete', 'head', 'options', 'trace'];

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function refuse(field: string, message: string): never {
  throw new ValidationError(`${field}: ${message}`, [{ field, message }]);
}

/** `spec.webhooks["invoice.paid"]`: a key as it appears in a path. */
function key(path: string, k: string | number): string {
  return typeof k === 'number' || /^[A-Za-z_][A-Za-z0-9_$-]*$/.test(k)
    ? `${path}.${k}`
    : `${path}[${JSON.stringify(k)}]`;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** The document as an object: JSON or YAML text, or the object itself. */
export function parseDocument(spec: unknown): Json {
  let doc: unknown = spec;
  if (typeof spec === 'string') {
    if (Buffer.byteLength(spec) > EVENT_TYPE_LIMITS.documentBytes)
      refuse('spec', `is larger than ${EVENT_TYPE_LIMITS.documentBytes} bytes`);
    const text = spec.trim();
    if (text === '') refuse('spec', 'is empty');
    try {
      doc = text.startsWith('{')
        ? JSON.parse(text)
        : // errors throw; warnings are not printed (logLevel 'silent' would drop the errors too)
          parseYaml(text, { maxAliasCount: 100, uniqueKeys: true, prettyErrors: false, logLevel: 'error' });
    } catch (err) {
      const what = text.startsWith('{') ? 'JSON' : 'YAML';
      const message = (err instanceof Error ? err.message : String(err)).split('\n')[0];
      refuse('spec', `is not valid ${what}: ${message}`);
    }
  } else if (Buffer.byteLength(JSON.stringify(spec) ?? '') > EVENT_TYPE_LIMITS.documentBytes) {
    refuse('spec', `is larger than ${EVENT_TYPE_LIMITS.documentBytes} bytes`);
  }
  if (!isObject(doc)) refuse('spec', 'is not an OpenAPI or AsyncAPI document (not an object)');
  return doc;
}

/** Resolves a `#/a/b` pointer in the document. */
function pointer(doc: Json, ref: string, field: string): unknown {
  if (!ref.startsWith('#/') && ref !== '#')
    refuse(
      field,
      `$ref ${JSON.stringify(ref)} points outside the document: only #/… references are imported`,
    );
  let at: unknown = doc;
  for (const raw of ref
    .slice(2)
    .split('/')
    .filter((s, i) => i > 0 || s !== '')) {
    const part = decoded(raw, field).replace(/~1/g, '/').replace(/~0/g, '~');
    at =
      isObject(at) && Object.hasOwn(at, part)
        ? at[part]
        : Array.isArray(at) && /^\d+$/.test(part)
          ? at[Number(part)]
          : undefined;
    if (at === undefined) refuse(field, `$ref ${JSON.stringify(ref)} does not resolve in the document`);
  }
  return at;
}

function decoded(part: string, field: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return refuse(field, `$ref part ${JSON.stringify(part)} is not valid percent-encoding`);
  }
}

/** Follows `$ref` chains of an object (a path item, message, request body…); `key` is the last ref's last part. */
function deref(doc: Json, value: unknown, field: string): { value: unknown; key?: string } {
  let out = value;
  let last: string | undefined;
  for (let hops = 0; isObject(out) && typeof out.$ref === 'string'; hops++) {
    if (hops >= 20) refuse(field, '$ref chain is longer than 20 references (a cycle?)');
    last = out.$ref.split('/').pop();
    out = pointer(doc, out.$ref, field);
  }
  return { value: out, key: last === undefined ? undefined : decoded(last, field) };
}

/** Subschemas of a schema object, by the keywords that hold schemas (not `enum`, `example`, `const`…). */
function* subschemas(s: Json): Generator<Json> {
  for (const k of ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'])
    if (isObject(s[k])) yield s[k];
  for (const k of ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'])
    if (Array.isArray(s[k])) for (const v of s[k]) if (isObject(v)) yield v;
  for (const k of ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'])
    if (isObject(s[k])) for (const v of Object.values(s[k])) if (isObject(v)) yield v;
}

/** Rewrites one schema object (in place) from its dialect to draft 2020-12. */
function to2020(s: Json, dialect: Dialect): void {
  if (dialect === 'oas30') {
    if (s.nullable === true && typeof s.type === 'string') s.type = [s.type, 'null'];
    delete s.nullable;
  }
  if (dialect !== 'oas31') {
    for (const [bound, exclusive] of [
      ['minimum', 'exclusiveMinimum'],
      ['maximum', 'exclusiveMaximum'],
    ] as const) {
      if (s[exclusive] === true && typeof s[bound] === 'number') {
        s[exclusive] = s[bound];
        delete s[bound];
      } else if (s[exclusive] === false) delete s[exclusive];
    }
    if (Array.isArray(s.items)) {
      s.prefixItems = s.items;
      if (s.additionalItems !== undefined) s.items = s.additionalItems;
      else delete s.items;
      delete s.additionalItems;
    }
    if (isObject(s.definitions) && s.$defs === undefined) {
      s.$defs = s.definitions;
      delete s.definitions;
    }
  }
}

function walkSchemas(root: Json, fn: (s: Json) => void): void {
  const seen = new Set<Json>();
  const stack = [root];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    fn(s);
    stack.push(...subschemas(s));
  }
}

/** Every `$ref` string in the value, with a setter to rewrite it. */
function eachRef(value: unknown, fn: (ref: string, set: (r: string) => void) => void): void {
  const stack = [value];
  const seen = new Set<unknown>(); // YAML aliases share objects
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) stack.push(...v);
    else if (isObject(v))
      for (const [k, child] of Object.entries(v)) {
        if (k === '$ref' && typeof child === 'string')
          fn(child, (r) => {
            v.$ref = r;
          });
        else stack.push(child);
      }
  }
}

/**
 * The schema at `at`, standing alone: a copy whose references into the document are copied into
 * its `$defs` (recursively), rewritten to draft 2020-12.
 */
function standalone(doc: Json, schema: unknown, at: string, dialect: Dialect): Json {
  if (!isObject(schema)) refuse(at, 'is not a schema object');
  const root = structuredClone(schema);
  const defs: Json = isObject(root.$defs) ? root.$defs : {};
  const names = new Map<string, string>(); // document pointer -> $defs key
  const pending: Json[] = [root];
  const localize = (target: Json) =>
    eachRef(target, (ref, set) => {
      if (!ref.startsWith('#/')) {
        if (ref.startsWith('#')) return; // an $anchor of the schema itself
        refuse(
          at,
          `$ref ${JSON.stringify(ref)} points outside the document: only #/… references are imported`,
        );
      }
      if (ref.startsWith('#/$defs/')) return; // the schema's own, or one copied in below
      let name = names.get(ref);
      if (name === undefined) {
        if (names.size >= MAX_HOISTED) refuse(at, `references more than ${MAX_HOISTED} schemas`);
        const resolved = pointer(doc, ref, at);
        if (!isObject(resolved) && typeof resolved !== 'boolean')
          refuse(at, `$ref ${JSON.stringify(ref)} is not a schema`);
        const base = (ref.split('/').pop() ?? 'def').replace(/[^A-Za-z0-9_.-]/g, '_') || 'def';
        name = base;
        for (let i = 2; Object.hasOwn(defs, name) || name === '__proto__'; i++) name = `${base}_${i}`;
        names.set(ref, name);
        const copy = structuredClone(resolved);
        defs[name] = copy;
        if (isObject(copy)) pending.push(copy);
      }
      set(`#/$defs/${name}`);
    });
  while (pending.length > 0) localize(pending.pop()!);
  if (Object.keys(defs).length > 0) root.$defs = defs;
  // the copies are in root.$defs, so this walk rewrites them too
  if (dialect !== 'oas31') walkSchemas(root, (s) => to2020(s, dialect));
  // OpenAPI's own keywords (`discriminator`, `xml`, `externalDocs`, `example`) are annotations for ajv.
  return root;
}

/** The JSON media type of a request body's `content`: application/json, else any *json, else the first. */
function jsonMedia(content: unknown): [string, Json] | undefined {
  if (!isObject(content)) return undefined;
  const entries = Object.entries(content).filter((e): e is [string, Json] => isObject(e[1]));
  return (
    entries.find(([t]) => t.split(';')[0].trim() === 'application/json') ??
    entries.find(([t]) => /json/i.test(t)) ??
    entries[0]
  );
}

function firstTag(tags: unknown): string {
  if (!Array.isArray(tags) || tags.length === 0) return '';
  const t = tags[0];
  return str(t) ?? (isObject(t) ? (str(t.name) ?? '') : '');
}

function openApiTypes(doc: Json, version: string): DeclaredType[] {
  const dialect: Dialect = version.startsWith('3.0') ? 'oas30' : 'oas31';
  const out: DeclaredType[] = [];
  for (const section of ['webhooks', 'x-webhooks']) {
    const webhooks = doc[section];
    if (webhooks === undefined) continue;
    const sectionAt = key('spec', section);
    if (!isObject(webhooks)) refuse(sectionAt, 'must be an object of webhooks by name');
    for (const [name, raw] of Object.entries(webhooks)) {
      const at = key(sectionAt, name);
      if (out.some((t) => t.name === name))
        refuse(at, `${JSON.stringify(name)} is declared twice (in webhooks and x-webhooks)`);
      const item = deref(doc, raw, at).value;
      if (!isObject(item)) refuse(at, 'must be a path item (an object with an operation such as post)');
      const method = METHODS.find((m) => isObject(item[m]));
      if (!method) refuse(at, 'has no operation (post, put, …)');
      const opAt = key(at, method);
      const op = item[method] as Json;
      const bodyAt = key(opAt, 'requestBody');
      const body = op.requestBody === undefined ? undefined : deref(doc, op.requestBody, bodyAt).value;
      const media = isObject(body) ? jsonMedia(body.content) : undefined;
      const mediaAt = media ? key(key(bodyAt, 'content'), media[0]) : bodyAt;
      const schemaAt = key(mediaAt, 'schema');
      const schema =
        media && media[1].schema !== undefined ? standalone(doc, media[1].schema, schemaAt, dialect) : null;
      let example: unknown = undefined;
      let exampleAt = key(mediaAt, 'example');
      if (media && media[1].example !== undefined) example = media[1].example;
      else if (media && isObject(media[1].examples)) {
        const [exName, ex] = Object.entries(media[1].examples)[0] ?? [];
        if (exName !== undefined) {
          exampleAt = key(key(key(mediaAt, 'examples'), exName), 'value');
          const resolved = deref(doc, ex, exampleAt).value;
          if (isObject(resolved) && resolved.value !== undefined) example = resolved.value;
        }
      } else if (schema && Array.isArray(schema.examples) && schema.examples.length > 0) {
        example = schema.examples[0];
        exampleAt = key(key(schemaAt, 'examples'), 0);
      } else if (schema && schema.example !== undefined) {
        example = schema.example;
        exampleAt = key(schemaAt, 'example');
      }
      out.push({
        name,
        at,
        description:
          str(op.description) ?? str(op.summary) ?? str(item.description) ?? str(item.summary) ?? '',
        category: firstTag(op.tags),
        deprecated: op.deprecated === true,
        schema,
        schemaAt,
        example,
        exampleAt,
      });
    }
  }
  if (out.length === 0)
    refuse('spec', `the OpenAPI ${version} document declares no webhooks (webhooks or x-webhooks)`);
  return out;
}

/** An AsyncAPI message's schema: `payload`, or a 3.x multi-format schema's `schema`; JSON Schema only. */
function messagePayload(doc: Json, message: Json, at: string): { schema: Json | null; at: string } {
  let payload = message.payload;
  let payloadAt = key(at, 'payload');
  let format = message.schemaFormat;
  if (isObject(payload) && payload.schemaFormat !== undefined && payload.schema !== undefined) {
    format = payload.schemaFormat;
    payload = payload.schema;
    payloadAt = key(payloadAt, 'schema');
  }
  if (
    format !== undefined &&
    !(typeof format === 'string' && /^application\/(vnd\.aai\.asyncapi|schema)\+(json|yaml)/.test(format))
  )
    refuse(
      key(at, 'schemaFormat'),
      `${JSON.stringify(format)} is not JSON Schema: only JSON Schema payloads can be imported`,
    );
  if (payload === undefined) return { schema: null, at: payloadAt };
  return { schema: standalone(doc, payload, payloadAt, 'draft07'), at: payloadAt };
}

function asyncApiMessageType(
  doc: Json,
  raw: unknown,
  at: string,
  fallback: { key?: string; op?: Json },
): DeclaredType {
  const { value, key: refKey } = deref(doc, raw, at);
  if (!isObject(value)) refuse(at, 'must be a message object');
  const name = str(value.name) ?? str(value.messageId) ?? refKey ?? fallback.key;
  if (name === undefined) refuse(at, 'has no name: give the message a name or messageId');
  const { schema, at: schemaAt } = messagePayload(doc, value, at);
  let example: unknown = undefined;
  let exampleAt = key(at, 'examples');
  if (
    Array.isArray(value.examples) &&
    isObject(value.examples[0]) &&
    value.examples[0].payload !== undefined
  ) {
    example = value.examples[0].payload;
    exampleAt = key(key(key(at, 'examples'), 0), 'payload');
  }
  const op = fallback.op ?? {};
  return {
    name,
    at,
    description:
      str(value.description) ??
      str(value.summary) ??
      str(value.title) ??
      str(op.description) ??
      str(op.summary) ??
      '',
    category: firstTag(value.tags) || firstTag(op.tags),
    deprecated: value.deprecated === true,
    schema,
    schemaAt,
    example,
    exampleAt,
  };
}

function asyncApi2Types(doc: Json): DeclaredType[] {
  const out: DeclaredType[] = [];
  if (!isObject(doc.channels)) refuse('spec.channels', 'must be an object of channels');
  for (const [channelName, raw] of Object.entries(doc.channels)) {
    const chAt = key('spec.channels', channelName);
    const channel = deref(doc, raw, chAt).value;
    if (!isObject(channel) || channel.subscribe === undefined) continue;
    const opAt = key(chAt, 'subscribe');
    const op = deref(doc, channel.subscribe, opAt).value;
    if (!isObject(op) || op.message === undefined) continue;
    const msgAt = key(opAt, 'message');
    const message = deref(doc, op.message, msgAt);
    const list =
      isObject(message.value) && Array.isArray(message.value.oneOf)
        ? message.value.oneOf.map((m, i) => ({ raw: m as unknown, at: key(key(msgAt, 'oneOf'), i) }))
        : [{ raw: op.message, at: msgAt }];
    for (const m of list)
      out.push(
        asyncApiMessageType(doc, m.raw, m.at, { key: list.length === 1 ? channelName : undefined, op }),
      );
  }
  if (out.length === 0)
    refuse(
      'spec',
      'the AsyncAPI 2 document has no subscribe operation with a message (what the application sends)',
    );
  return out;
}

function asyncApi3Types(doc: Json): DeclaredType[] {
  const out: DeclaredType[] = [];
  if (!isObject(doc.operations)) refuse('spec.operations', 'must be an object of operations');
  for (const [opName, raw] of Object.entries(doc.operations)) {
    const opAt = key('spec.operations', opName);
    const op = deref(doc, raw, opAt).value;
    if (!isObject(op) || op.action !== 'send') continue;
    const channel = deref(doc, op.channel, key(opAt, 'channel')).value;
    const messages: { raw: unknown; at: string; key?: string }[] = Array.isArray(op.messages)
      ? op.messages.map((m, i) => ({ raw: m as unknown, at: key(key(opAt, 'messages'), i) }))
      : isObject(channel) && isObject(channel.messages)
        ? Object.entries(channel.messages).map(([k, m]) => ({
            raw: m,
            at: key(key(opAt, 'channel.messages'), k),
            key: k,
          }))
        : [];
    for (const m of messages) out.push(asyncApiMessageType(doc, m.raw, m.at, { key: m.key, op }));
  }
  if (out.length === 0)
    refuse(
      'spec',
      'the AsyncAPI 3 document has no send operation with messages (what the application sends)',
    );
  return out;
}

/** One entry per name: a message sent on several channels is one type (declared differently: refused). */
function unique(types: DeclaredType[]): DeclaredType[] {
  const byName = new Map<string, DeclaredType>();
  for (const t of types) {
    const seen = byName.get(t.name);
    if (!seen) byName.set(t.name, t);
    else if (
      JSON.stringify([seen.description, seen.category, seen.schema, seen.example]) !==
      JSON.stringify([t.description, t.category, t.schema, t.example])
    )
      refuse(t.at, `declares ${JSON.stringify(t.name)} differently from ${seen.at}`);
  }
  return [...byName.values()];
}

/** The event types the document declares, in document order. */
export function declaredTypes(doc: Json): DeclaredType[] {
  if (typeof doc.swagger === 'string')
    refuse('spec.swagger', 'Swagger 2.0 has no webhooks: convert the document to OpenAPI 3.1');
  const openapi = doc.openapi;
  if (openapi !== undefined) {
    if (typeof openapi !== 'string' || !/^3\.\d+/.test(openapi))
      refuse('spec.openapi', `${JSON.stringify(openapi)} is not a supported version (3.0 or 3.1)`);
    return openApiTypes(doc, openapi);
  }
  const asyncapi = doc.asyncapi;
  if (asyncapi !== undefined) {
    if (typeof asyncapi === 'string' && /^2\.\d+/.test(asyncapi)) return unique(asyncApi2Types(doc));
    if (typeof asyncapi === 'string' && /^3\.\d+/.test(asyncapi)) return unique(asyncApi3Types(doc));
    refuse('spec.asyncapi', `${JSON.stringify(asyncapi)} is not a supported version (2.x or 3.x)`);
  }
  return refuse(
    'spec',
    'is not an OpenAPI 3.x or AsyncAPI 2.x/3.x document: it has no openapi or asyncapi version',
  );
}
