/** A log sequence number ("16/B374D848") as a number, to compare two. */
export function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
}

function lsnText(value: bigint): string {
  return `${(value >> 32n).toString(16)}/${(value & 0xffffffffn).toString(16)}`.toUpperCase();
}

/**
 * The position just before `lsn`. pg-logical-replication's `acknowledge(x)` reports x + 1 as
 * flushed, while the server resumes a slot *at* its confirmed position: acknowledging the
 * position before a commit's end confirms exactly that end, as Postgres's own subscriber does
 * (a transaction whose commit record starts there is then sent, not skipped).
 */
export function lsnBefore(lsn: string): string {
  const v = lsnValue(lsn);
  return lsnText(v > 0n ? v - 1n : 0n);
}
