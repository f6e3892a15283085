import { messageOf } from '../components/http';
import type { ConsoleContext } from './context';
import { SessionEnded } from './session';

/**
 * Runs an action the operator asked for: tells its outcome in the toast and reloads the view.
 * Resolves false when it failed (an ended session shows the sign-in, not a toast).
 */
export async function act(ctx: ConsoleContext, run: () => Promise<unknown>, done: string): Promise<boolean> {
  try {
    await run();
    ctx.notify(done);
    ctx.refresh();
    return true;
  } catch (err) {
    if (!(err instanceof SessionEnded)) ctx.notify(`Failed: ${messageOf(err)}`);
    return false;
  }
}
