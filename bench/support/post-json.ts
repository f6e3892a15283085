import http from 'node:http';

/** POSTs `body` as JSON on `agent` (keep-alive); resolves with the answer, or status 0 on a socket error. */
export function postJson(
  agent: http.Agent,
  url: URL,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const text = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          ...headers,
        },
      },
      (res) => {
        let answer = '';
        res.on('data', (c: Buffer) => (answer += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: answer }));
      },
    );
    req.on('error', (err) => resolve({ status: 0, text: String(err) }));
    req.end(text);
  });
}
