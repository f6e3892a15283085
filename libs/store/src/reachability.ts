import pTimeout from 'p-timeout';

/** How long a check waits for the database's answer before it reports what it last knew. */
export const ANSWER_WAIT_MS = 2_000;
/** How long the database may go without answering before it counts as unreachable. */
export const UNREACHABLE_AFTER_MS = 15_000;

/**
 * Whether the database answers, telling a busy server from an unreachable one. A server working
 * through a burst of writes can take seconds to answer a ping; reporting it unreachable then made
 * `/readyz` flap and logged outages that were none. So a check starts a ping only when none is in
 * flight and waits ANSWER_WAIT_MS for it: an answer, or an error (a refused or cut connection, which
 * the driver reports at once), decides; a ping still waiting keeps the last verdict until it has
 * waited UNREACHABLE_AFTER_MS (a server that stopped without closing its connections).
 */
export class Reachability {
  private reachable = true;
  private inFlight: { since: number; answered: Promise<void> } | null = null;

  constructor(
    private readonly ping: () => Promise<unknown>,
    private readonly now: () => number = Date.now,
  ) {}

  async check(): Promise<boolean> {
    const pending = (this.inFlight ??= this.start());
    await pTimeout(pending.answered, { milliseconds: ANSWER_WAIT_MS, fallback: () => undefined });
    if (this.inFlight !== pending) return this.reachable;
    return this.reachable && this.now() - pending.since < UNREACHABLE_AFTER_MS;
  }

  private start(): { since: number; answered: Promise<void> } {
    const since = this.now();
    const settle = (reachable: boolean) => {
      this.reachable = reachable;
      this.inFlight = null;
    };
    const answered = this.ping().then(
      () => settle(true),
      () => settle(false),
    );
    return { since, answered };
  }
}
