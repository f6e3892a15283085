import { openAmqp } from './amqp.session';
import { openKafka } from './kafka.session';
import { openPubSub } from './pubsub.session';
import type { BrokerSettings } from './settings';
import { openSqs } from './sqs.session';
import type { Session, Subscriber, SubscriberOptions } from './subscriber';
import { supervise } from './supervise';

/** Starts consuming a source's broker with its kind's client; reconnects until stopped. */
export function startSubscriber(settings: BrokerSettings, opts: SubscriberOptions): Subscriber {
  const open = (o: SubscriberOptions): Promise<Session> => {
    switch (settings.kind) {
      case 'amqp':
        return openAmqp(settings, o);
      case 'kafka':
        return openKafka(settings, o);
      case 'sqs':
        return openSqs(settings, o);
      case 'google':
        return openPubSub(settings, o);
    }
  };
  return supervise(open, opts);
}
