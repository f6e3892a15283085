export type ParsedBody =
  | { kind: 'ok'; data: unknown; raw: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'unsupported'; message: string };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Turns an ingest body into the event payload. Bodies must be UTF-8 text. JSON types must parse;
 * a form body becomes a JSON object (repeated names become arrays); any other text is kept as
 * JSON when it parses as JSON, else as a JSON string. Multipart and binary bodies are refused.
 * `raw` is the body text exactly as received.
 */
export function parseBody(body: Buffer, contentTypeHeader: string | undefined): ParsedBody {
  const mediaType = (contentTypeHeader ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType.startsWith('multipart/') || mediaType === 'application/octet-stream') {
    return {
      kind: 'unsupported',
      message: `unsupported content type ${mediaType}; send JSON, a form or text`,
    };
  }
  if (body.length === 0) return { kind: 'invalid', message: 'request body is empty' };
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { kind: 'invalid', message: 'request body is not valid UTF-8' };
  }
  if (isJsonType(mediaType)) {
    try {
      return { kind: 'ok', data: JSON.parse(text), raw: text };
    } catch (err) {
      return { kind: 'invalid', message: `request body is not valid JSON: ${(err as Error).message}` };
    }
  }
  if (mediaType === 'application/x-www-form-urlencoded') {
    return { kind: 'ok', data: formToObject(text), raw: text };
  }
  try {
    return { kind: 'ok', data: JSON.parse(text), raw: text };
  } catch {
    return { kind: 'ok', data: text, raw: text };
  }
}

function isJsonType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

function formToObject(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const prev = out[name];
    if (prev === undefined) out[name] = value;
    else out[name] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
