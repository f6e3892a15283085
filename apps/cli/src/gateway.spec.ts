import { EXIT } from './exit-codes';
import { refusal } from './gateway';

/** An error answer as the gateway's error mapper writes it (libs/domain `fail`). */
const answer = (status: number, message: string, errors?: { field: string; message: string }[]) =>
  new Response(
    JSON.stringify({ status: false, message, data: { errors: errors ?? [{ field: '', message }] } }),
    { status, headers: { 'content-type': 'application/json' } },
  );

describe('refusal', () => {
  it('prints a refusal’s message once, not again as its field-less error', async () => {
    const err = await refusal(answer(409, 'delivery already succeeded'));
    expect(err.message).toBe('409: delivery already succeeded');
    expect(err.code).toBe(EXIT.refused);
  });

  it('keeps the fields a 400 names, without repeating the one its message names', async () => {
    const one = await refusal(
      answer(400, 'invalid request body: url must match format "uri"', [
        { field: 'url', message: 'must match format "uri"' },
      ]),
    );
    expect(one.message).toBe('400: invalid request body: url must match format "uri"');
    const two = await refusal(
      answer(400, 'invalid request body: url must match format "uri"', [
        { field: 'url', message: 'must match format "uri"' },
        { field: 'http_timeout', message: 'must be <= 60' },
      ]),
    );
    expect(two.message).toBe(
      '400: invalid request body: url must match format "uri" (http_timeout: must be <= 60)',
    );
  });

  it('exits 3 on a refused key, and says the status text when the answer has no envelope', async () => {
    const err = await refusal(new Response('nope', { status: 401, statusText: 'Unauthorized' }));
    expect(err).toMatchObject({ message: '401: Unauthorized', code: EXIT.auth });
  });
});
