import { readRefusal, refusalText } from './envelope';

/** A refusal's envelope as the gateway's error mapper writes it (libs/domain `fail`). */
const refused = (
  message: string,
  errors: { field: string; message: string }[] = [{ field: '', message }],
) => ({
  status: false,
  message,
  data: { errors },
});

describe('reading a refusal', () => {
  it('says the message once, not again as its field-less error', () => {
    const r = readRefusal(refused('delivery already succeeded'), 'HTTP 409');
    expect(r).toEqual({ message: 'delivery already succeeded', fields: [], detail: '' });
    expect(refusalText(r)).toBe('delivery already succeeded');
  });

  it('keeps every field for the form, and in the text only those the message does not name', () => {
    const r = readRefusal(
      refused('invalid request body: url must match format "uri"', [
        { field: 'url', message: 'must match format "uri"' },
        { field: 'http_timeout', message: 'must be <= 60' },
      ]),
      'HTTP 400',
    );
    expect(r.fields.map((f) => f.field)).toEqual(['url', 'http_timeout']);
    expect(refusalText(r)).toBe(
      'invalid request body: url must match format "uri" (http_timeout: must be <= 60)',
    );
  });

  it('falls back when there is no envelope, and ignores malformed errors', () => {
    expect(readRefusal(undefined, 'HTTP 502')).toEqual({ message: 'HTTP 502', fields: [], detail: '' });
    expect(readRefusal({ message: 'm', data: { errors: [{ field: 'x' }, 'y'] } }, 'f').detail).toBe('');
  });
});
