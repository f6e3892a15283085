// kafkajs 2.2.4's encoder zero-fills a new ArrayBuffer for every encoder it makes (several per
// message: the record, each header, the batch, the request) and a Buffer for every varint: most of
// what encoding a produce request cost. patches/kafkajs+2.2.4.patch writes into pooled, unzeroed
// buffers instead; these tests guard the bytes it writes and that the patch is in place.
/* eslint-disable @typescript-eslint/no-require-imports */
const Encoder = require('kafkajs/src/protocol/encoder');
const Decoder = require('kafkajs/src/protocol/decoder');
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0');
const Record = require('kafkajs/src/protocol/recordBatch/record/v0');
const decodeRecordBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder');
const produceRequest = require('kafkajs/src/protocol/requests/produce/v7/request');
/* eslint-enable @typescript-eslint/no-require-imports */

const bytes = (write: (e: typeof Encoder) => void): number[] => {
  const e = new Encoder();
  write(e);
  return [...e.buffer];
};

const messages = [
  { key: 'proj_1', value: Buffer.from('{"event":"a"}'), headers: { traceparent: '00-abc-def-01' } },
  { key: null, value: 'ünïcödé and emoji 🚀', headers: { bin: Buffer.from([0, 255, 7]) } },
  { key: 'k'.repeat(300), value: Buffer.alloc(2_000, 'v'), headers: {} },
  { key: 'tombstone', value: null, headers: { a: '1', b: '2' } },
];

async function encodedBatch(): Promise<Buffer> {
  const records = messages.map((m, i) => Record({ ...m, offsetDelta: i, timestampDelta: i }));
  const batch = await RecordBatch({
    records,
    firstTimestamp: 1_700_000_000_000,
    maxTimestamp: 1_700_000_000_003,
    lastOffsetDelta: records.length - 1,
  });
  return batch.buffer;
}

const allocUnsafe = Buffer.allocUnsafe;

/** Encodes a batch with every unzeroed allocation holding `byte` where nothing was written. */
async function encodedOver(byte: number): Promise<Buffer> {
  const spy = jest.spyOn(Buffer, 'allocUnsafe').mockImplementation((size) => allocUnsafe(size).fill(byte));
  try {
    return Buffer.from(await encodedBatch());
  } finally {
    spy.mockRestore();
  }
}

describe('kafkajs encoder (patched)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('writes Kafka varints (zig-zag, base 128) byte for byte', () => {
    expect(bytes((e) => e.writeVarInt(0))).toEqual([0x00]);
    expect(bytes((e) => e.writeVarInt(-1))).toEqual([0x01]);
    expect(bytes((e) => e.writeVarInt(1))).toEqual([0x02]);
    expect(bytes((e) => e.writeVarInt(63))).toEqual([0x7e]);
    expect(bytes((e) => e.writeVarInt(64))).toEqual([0x80, 0x01]);
    expect(bytes((e) => e.writeVarInt(-65))).toEqual([0x81, 0x01]);
    expect(bytes((e) => e.writeVarInt(2_147_483_647))).toEqual([0xfe, 0xff, 0xff, 0xff, 0x0f]);
    expect(bytes((e) => e.writeVarInt(-2_147_483_648))).toEqual([0xff, 0xff, 0xff, 0xff, 0x0f]);
    expect(bytes((e) => e.writeUVarInt(300))).toEqual([0xac, 0x02]);
    expect(bytes((e) => e.writeVarLong(1))).toEqual([0x02]);
    expect(bytes((e) => e.writeVarLong(-1))).toEqual([0x01]);
    expect(bytes((e) => e.writeVarLong('4294967296'))).toEqual([0x80, 0x80, 0x80, 0x80, 0x20]);
  });

  it('reads back every value it wrote, across buffer growth', () => {
    const values = [0, 1, -1, 127, 128, -129, 16_383, 16_384, 1 << 28, -(1 << 28), 2_147_483_647];
    const e = new Encoder(1);
    for (let round = 0; round < 200; round++)
      for (const v of values) e.writeVarInt(v).writeInt32(v).writeVarIntString(`s${v}`);
    const d = new Decoder(e.buffer);
    for (let round = 0; round < 200; round++)
      for (const v of values) {
        expect(d.readVarInt()).toBe(v);
        expect(d.readInt32()).toBe(v);
        expect(d.readVarIntString()).toBe(`s${v}`);
      }
  });

  it('round-trips a record batch: keys, null keys and values, headers, multi-byte text', async () => {
    const decoded = await decodeRecordBatch(new Decoder(await encodedBatch()));
    expect(
      decoded.records.map((r: { key: Buffer | null; value: Buffer | null; headers: object }) => ({
        key: r.key?.toString() ?? null,
        value: r.value?.toString() ?? null,
        headers: r.headers,
      })),
    ).toEqual(
      messages.map((m) => ({
        key: m.key,
        value: m.value?.toString() ?? null,
        headers: Object.fromEntries(
          Object.entries(m.headers).map(([k, v]) => [k, Buffer.isBuffer(v) ? v : Buffer.from(v)]),
        ),
      })),
    );
  });

  it('writes the same bytes whatever the memory it was given held', async () => {
    const onZeroes = await encodedOver(0x00);
    expect(onZeroes.length).toBeGreaterThan(2_300);
    expect((await encodedOver(0xaa)).equals(onZeroes)).toBe(true);
    expect((await encodedOver(0xff)).equals(onZeroes)).toBe(true);
  });

  it('encodes a produce request without zero-filled allocations or a buffer per varint', async () => {
    const alloc = jest.spyOn(Buffer, 'alloc');
    const from = jest.spyOn(Buffer, 'from');
    const request = produceRequest({
      acks: -1,
      timeout: 30_000,
      topicData: [{ topic: 't', partitions: [{ partition: 0, firstSequence: 0, messages }] }],
    });
    const encoded = await request.encode();
    expect(encoded.buffer.length).toBeGreaterThan(2_300);
    expect(alloc).not.toHaveBeenCalled();
    expect(from.mock.calls.filter(([arg]) => Array.isArray(arg))).toEqual([]);
  });
});
