/** The two load shapes the events-API benches send: `send` posts one event and ends with its answer. */

/** `count` events over `connections` at once, each connection sending its next on the last's answer. */
export async function atMaxRate(
  send: () => Promise<void>,
  count: number,
  connections: number,
): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (left-- > 0) await send();
    }),
  );
}

/** `rate` events a second for `seconds`, each on its schedule whatever the answers before it. */
export async function atFixedRate(send: () => Promise<void>, rate: number, seconds: number): Promise<void> {
  const t0 = Date.now();
  const sent: Promise<void>[] = [];
  for (let i = 0; i < rate * seconds; i++) {
    const wait = t0 + (i * 1000) / rate - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sent.push(send());
  }
  await Promise.all(sent);
}
