/**
 * What a typed Go client does with a response: `encoding/json` into a struct. Unknown fields are
 * ignored and `null` leaves a field at its zero value, but a value of the wrong JSON type fails the
 * whole decode. These descriptors mirror Convoy's Go structs field by field (json tag → Go type),
 * and `goDecode` fails exactly where `json.Unmarshal` would, naming the path.
 */
export type GoType =
  | 'string'
  | 'int'
  | 'uint'
  | 'float'
  | 'bytes'
  | 'bool'
  | 'time'
  | 'raw'
  | 'intOrString'
  | { map: GoType }
  | { slice: GoType }
  | { struct: GoStruct };
export type GoStruct = { [jsonTag: string]: GoType };

/** TS view of a decoded struct (what the test code reads). */
export type Decoded<T> = T extends 'string' | 'intOrString' | 'time'
  ? string
  : T extends 'int' | 'uint' | 'float'
    ? number
    : T extends 'bool'
      ? boolean
      : T extends 'raw' | 'bytes'
        ? unknown
        : T extends { map: infer V }
          ? Record<string, Decoded<V>>
          : T extends { slice: infer V }
            ? Decoded<V>[]
            : T extends { struct: infer S }
              ? { [K in keyof S]: Decoded<S[K]> }
              : never;

export const struct = <S extends GoStruct>(s: S) => ({ struct: s }) as const;
export const slice = <V extends GoType>(v: V) => ({ slice: v }) as const;
export const map = <V extends GoType>(v: V) => ({ map: v }) as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const isByteArray = (v: unknown) =>
  Array.isArray(v) && v.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 255);

// Go's time.Time decodes RFC 3339 only
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Decodes `value` as Go would into `type`; throws `json: cannot unmarshal … into <path>`. */
export function goDecode<T extends GoType>(type: T, value: unknown, path = 'data'): Decoded<T> {
  check(type, value, path);
  return value as Decoded<T>;
}

function fail(path: string, type: GoType, value: unknown): never {
  throw new Error(
    `json: cannot unmarshal ${JSON.stringify(value)?.slice(0, 80)} into ${path} of Go type ${JSON.stringify(type).slice(0, 80)}`,
  );
}

function check(type: GoType, value: unknown, path: string): void {
  if (value === null || value === undefined) return; // null: zero value, absent: zero value
  if (typeof type === 'string') {
    switch (type) {
      case 'string':
        if (typeof value !== 'string') fail(path, type, value);
        return;
      case 'int':
        if (typeof value !== 'number' || !Number.isInteger(value)) fail(path, type, value);
        return;
      case 'uint':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(path, type, value);
        return;
      case 'float':
        if (typeof value !== 'number') fail(path, type, value);
        return;
      case 'bytes': // []byte: base64 text, or an array of byte values
        if (typeof value === 'string' ? !BASE64.test(value) : !isByteArray(value)) fail(path, type, value);
        return;
      case 'bool':
        if (typeof value !== 'boolean') fail(path, type, value);
        return;
      case 'time':
        if (typeof value !== 'string' || !RFC3339.test(value)) fail(path, type, value);
        return;
      case 'intOrString': // convoy-go's customString
        if (typeof value !== 'string' && !(typeof value === 'number' && Number.isInteger(value)))
          fail(path, type, value);
        return;
      case 'raw':
        return;
    }
  }
  if ('slice' in type) {
    if (!Array.isArray(value)) fail(path, type, value);
    value.forEach((v, i) => check(type.slice, v, `${path}[${i}]`));
    return;
  }
  if (typeof value !== 'object' || Array.isArray(value)) fail(path, type, value);
  const obj = value as Record<string, unknown>;
  if ('map' in type) {
    for (const [k, v] of Object.entries(obj)) check(type.map, v, `${path}[${JSON.stringify(k)}]`);
    return;
  }
  // Go matches keys case-insensitively when no exact tag matches; our keys are exact.
  for (const [tag, fieldType] of Object.entries(type.struct)) check(fieldType, obj[tag], `${path}.${tag}`);
}
