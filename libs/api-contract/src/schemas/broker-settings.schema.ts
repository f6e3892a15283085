import { Type } from '@sinclair/typebox';
import { bool, enumOf, int, nonEmpty, object, str } from './common.schema';

/**
 * The broker settings a source (where messages are read, source.schema.ts) and a destination
 * (where deliveries are published, destination.schema.ts) share: how to reach and sign in to each
 * kind of broker. What differs between the two is the place on the broker, declared beside them.
 */

/** A RabbitMQ server: host, port, scheme, virtual host and the user's credentials. */
export const amqpConnectionFields = {
  host: nonEmpty(500),
  port: str({ pattern: '^[0-9]{1,5}$' }),
  schema: enumOf(['amqp', 'amqps']),
  vhost: str({ maxLength: 500 }),
  auth: object({ user: str({ maxLength: 500 }), password: str({ maxLength: 1000 }) }),
};

/** A Kafka cluster: its bootstrap brokers and SASL/TLS sign-in. */
export const kafkaConnectionFields = {
  brokers: Type.Array(nonEmpty(500), { minItems: 1, maxItems: 50 }),
  auth: object({
    type: enumOf(['plain', 'scram']),
    hash: enumOf(['SHA256', 'SHA512']),
    username: str({ maxLength: 500 }),
    password: str({ maxLength: 1000 }),
    tls: bool,
  }),
};

/**
 * A Google service account's key file, as its bytes: an array of byte values, or base64 text (Go
 * clients send a []byte so; Convoy's generated client does).
 */
export const googleServiceAccount = Type.Union([
  Type.Array(int({ minimum: 0, maximum: 255 }), { maxItems: 64 * 1024 }),
  str({
    pattern: '^[A-Za-z0-9+/]*={0,2}$',
    maxLength: Math.ceil((64 * 1024) / 3) * 4,
    description: "the key file's bytes as base64",
  }),
]);
