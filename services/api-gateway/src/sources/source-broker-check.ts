import { brokerEnvironment, brokerSettings, BrokerSettingsError, checkBroker } from '@hookrail/brokers';
import { ValidationError } from '@hookrail/domain';
import type { GatewayDeps } from '../deps';

/**
 * A broker source is only accepted when its settings work against the broker: unreachable host,
 * refused credentials, a missing queue/topic/subscription, a private host the deployment does not
 * allow or one of Hookrail's own topics answer 400 naming the field, instead of a source that
 * could never consume.
 */
export async function assertBrokerReachable(
  deps: GatewayDeps,
  pubSub: Record<string, unknown> | null,
): Promise<void> {
  if (!pubSub) return;
  let settings;
  try {
    settings = brokerSettings(
      'check',
      pubSub,
      brokerEnvironment(deps.config, await deps.bus.clusterId()),
    ).settings;
  } catch (err) {
    if (!(err instanceof BrokerSettingsError)) throw err;
    throw new ValidationError(err.message, [{ field: 'pub_sub', message: err.message }]);
  }
  const problem = await checkBroker(settings);
  if (problem)
    throw new ValidationError(`${problem.field}: ${problem.message}`, [
      { field: problem.field, message: problem.message },
    ]);
}
