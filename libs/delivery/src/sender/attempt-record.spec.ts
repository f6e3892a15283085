import { attemptRecord } from './attempt-record';

const headers = { 'Content-Type': 'application/json', Authorization: 'Bearer s3cret', 'X-Api-Key': 'k' };

describe('attemptRecord', () => {
  it('keeps the response and redacts the credential headers it was told about', () => {
    const a = attemptRecord(
      'https://example.com/hook',
      headers,
      { kind: 'response', status: 202, headers: { 'x-r': '1' }, body: 'ok', latencyMs: 12 },
      ['authorization', 'x-api-key'],
    );
    expect(a).toMatchObject({
      url: 'https://example.com/hook',
      method: 'POST',
      http_status: 202,
      response_data: 'ok',
      error: null,
      latency_ms: 12,
    });
    expect(JSON.parse(a.request_headers_json)).toEqual({
      'Content-Type': 'application/json',
      Authorization: '[redacted]',
      'X-Api-Key': '[redacted]',
    });
    expect(JSON.parse(a.response_headers_json)).toEqual({ 'x-r': '1' });
  });

  it('keeps the error text of a failed connection and of a request never sent', () => {
    const failed = attemptRecord(
      'https://example.com',
      {},
      { kind: 'error', code: 'ECONNREFUSED', message: 'connect refused', maybeReached: false, latencyMs: 3 },
      [],
    );
    expect(failed).toMatchObject({
      http_status: null,
      error: 'ECONNREFUSED: connect refused',
      latency_ms: 3,
    });
    const notSent = attemptRecord('https://example.com', {}, { kind: 'not_sent', message: 'no token' }, []);
    expect(notSent).toMatchObject({ error: 'no token', latency_ms: 0, response_data: '' });
  });
});
