/** How far a signed timestamp may be from the receiver's clock, either way (as the docs' verifiers). */
const REPLAY_TOLERANCE_SECONDS = 300;

/** A decimal Unix-seconds timestamp within the replay window of `nowSeconds`. */
export function withinReplayWindow(timestamp: string | undefined, nowSeconds: number): boolean {
  return (
    timestamp !== undefined &&
    /^\d+$/.test(timestamp) &&
    Math.abs(nowSeconds - Number(timestamp)) <= REPLAY_TOLERANCE_SECONDS
  );
}
