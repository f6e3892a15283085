import Ajv, { type ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import { ConfigBarrierSchema, type ConfigBarrier } from './messages';
import { TOPICS, type MessageOf, type TopicKey } from './topics';

const ajv = new Ajv({ allErrors: false, strict: false });
const validators = new Map<TSchema, ValidateFunction>();

function validatorFor(schema: TSchema): ValidateFunction {
  let v = validators.get(schema);
  if (!v) {
    v = ajv.compile(schema);
    validators.set(schema, v);
  }
  return v;
}

export class PoisonMessageError extends Error {
  readonly retriable = false;
  constructor(topic: TopicKey, reason: string) {
    super(`poison message on ${topic}: ${reason}`);
    this.name = 'PoisonMessageError';
  }
}

export function encodeMessage<K extends TopicKey>(_key: K, message: MessageOf<K>): Buffer {
  return Buffer.from(JSON.stringify(message));
}

/** Parses and validates; throws PoisonMessageError (never retriable) when the bytes cannot be a message of this topic. */
export function decodeMessage<K extends TopicKey>(key: K, value: Buffer | null): MessageOf<K> {
  return decodeWith(TOPICS[key].schema, key, value) as MessageOf<K>;
}

/** A configuration barrier found on `key` (consumer.ts); PoisonMessageError when it is not one. */
export function decodeBarrier(key: TopicKey, value: Buffer | null): ConfigBarrier {
  return decodeWith(ConfigBarrierSchema, key, value) as ConfigBarrier;
}

function decodeWith(schema: TSchema, key: TopicKey, value: Buffer | null): unknown {
  if (!value) throw new PoisonMessageError(key, 'empty value');
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch {
    throw new PoisonMessageError(key, 'value is not JSON');
  }
  const validate = validatorFor(schema);
  if (!validate(parsed)) {
    const first = validate.errors?.[0];
    throw new PoisonMessageError(key, `${first?.instancePath || '/'} ${first?.message ?? 'invalid'}`);
  }
  return parsed;
}
