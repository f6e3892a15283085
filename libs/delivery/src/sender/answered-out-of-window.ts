/**
 * A deliveries message whose attempt has its answer only waits for its record: the outcome's
 * write, behind the process's one record write at a time, then a retry's message. Held in the
 * consumer's window meanwhile, a thousand retries a second answered in milliseconds kept the
 * sender's 1,000 places full of records queued for up to a second, and the retries falling due
 * waited in the topic behind them (docs/isolation.md, "Retries on schedule"). So a message leaves
 * the window once its attempt is answered, as the router's first sends free their local slot;
 * its offset is still committed only after its record. Messages waiting so are bounded: past
 * `max`, a message keeps its place until its record is written, so a database that stops
 * answering still stops the intake, at `max` records more than before.
 */
export class AnsweredOutOfWindow {
  private waiting = 0;

  constructor(private readonly max: number) {}

  /**
   * Handles one message: `handle` gets the `attemptEnded` to pass to the sender, which takes the
   * message out of its window (`leaveWindow`) while fewer than `max` wait so.
   */
  run(leaveWindow: () => void, handle: (attemptEnded: () => void) => Promise<void>): Promise<void> {
    let out = false;
    const attemptEnded = () => {
      if (out || this.waiting >= this.max) return;
      out = true;
      this.waiting++;
      leaveWindow();
    };
    return handle(attemptEnded).finally(() => {
      if (out) this.waiting--;
    });
  }

  /** Messages answered and waiting for their records out of the window now. */
  get size(): number {
    return this.waiting;
  }
}
