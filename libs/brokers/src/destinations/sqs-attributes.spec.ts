import { SQS_MAX_ATTRIBUTES, SQS_PACKED_HEADERS, sqsMessageAttributes } from './sqs-attributes';

const headers = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`H-${i}`, `v${i}`]));
const values = (a: ReturnType<typeof sqsMessageAttributes>) =>
  Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v.StringValue]));

describe('sqsMessageAttributes', () => {
  it('one String attribute per header while they fit', () => {
    const a = sqsMessageAttributes(headers(SQS_MAX_ATTRIBUTES));
    expect(values(a)).toEqual(headers(SQS_MAX_ATTRIBUTES));
    expect(Object.values(a).every((v) => v.DataType === 'String')).toBe(true);
  });

  it('beyond 10, keeps the last 9 (the sender puts its own and the signature headers last) and packs the rest', () => {
    const all = { Forwarded: 'a', 'X-Trace': 'b', ...headers(11) };
    const a = values(sqsMessageAttributes(all));
    expect(Object.keys(a)).toHaveLength(SQS_MAX_ATTRIBUTES);
    const names = Object.keys(all);
    for (const k of names.slice(-9)) expect(a[k]).toBe(all[k as keyof typeof all]);
    expect(JSON.parse(a[SQS_PACKED_HEADERS]!)).toEqual(
      Object.fromEntries(names.slice(0, -9).map((k) => [k, all[k as keyof typeof all]])),
    );
  });
});
