import Ajv, { type ValidateFunction } from 'ajv';
import { TOPICS, type MessageOf, type TopicKey } from './topics';

const ajv = new Ajv({ allErrors: false, strict: false });
const validators = new Map<TopicKey, ValidateFunction>();

function validatorFor(key: TopicKey): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    v = ajv.compile(TOPICS[key].schema);
    validators.set(key, v);
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
  if (!value) throw new PoisonMessageError(key, 'empty value');
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch {
    throw new PoisonMessageError(key, 'value is not JSON');
  }
  const validate = validatorFor(key);
  if (!validate(parsed)) {
    const first = validate.errors?.[0];
    throw new PoisonMessageError(key, `${first?.instancePath || '/'} ${first?.message ?? 'invalid'}`);
  }
  return parsed as MessageOf<K>;
}
