import { parseBody } from './parse-body';

const b = (s: string | number[]) => (typeof s === 'string' ? Buffer.from(s) : Buffer.from(s));

describe('parseBody', () => {
  it('parses JSON bodies and keeps the exact text as raw', () => {
    expect(parseBody(b('{ "a": 1 }'), 'application/json; charset=utf-8')).toEqual({
      kind: 'ok',
      data: { a: 1 },
      raw: '{ "a": 1 }',
    });
    expect(parseBody(b('[1]'), 'application/vnd.api+json')).toMatchObject({ kind: 'ok', data: [1] });
  });

  it('rejects malformed JSON with the parser message', () => {
    const r = parseBody(b('{"a":'), 'application/json');
    expect(r).toMatchObject({ kind: 'invalid', message: expect.stringContaining('not valid JSON') });
  });

  it('rejects invalid UTF-8 for any content type', () => {
    const bad = b([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    expect(parseBody(bad, 'application/json')).toEqual({
      kind: 'invalid',
      message: 'request body is not valid UTF-8',
    });
    expect(parseBody(bad, 'text/plain')).toEqual({
      kind: 'invalid',
      message: 'request body is not valid UTF-8',
    });
  });

  it('turns a form body into a JSON object, repeated names into arrays', () => {
    expect(parseBody(b('a=1&b=x+y&a=2&c=%C3%A9'), 'application/x-www-form-urlencoded')).toEqual({
      kind: 'ok',
      data: { a: ['1', '2'], b: 'x y', c: 'é' },
      raw: 'a=1&b=x+y&a=2&c=%C3%A9',
    });
  });

  it('keeps other text as JSON when it parses, else as a string', () => {
    expect(parseBody(b('{"a":1}'), undefined)).toMatchObject({ kind: 'ok', data: { a: 1 } });
    expect(parseBody(b('<x>1</x>'), 'application/xml')).toEqual({
      kind: 'ok',
      data: '<x>1</x>',
      raw: '<x>1</x>',
    });
  });

  it('refuses empty bodies, multipart and binary uploads', () => {
    expect(parseBody(b(''), 'application/json')).toEqual({
      kind: 'invalid',
      message: 'request body is empty',
    });
    expect(parseBody(b('x'), 'multipart/form-data; boundary=z')).toMatchObject({ kind: 'unsupported' });
    expect(parseBody(b('x'), 'application/octet-stream')).toMatchObject({ kind: 'unsupported' });
  });
});
