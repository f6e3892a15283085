import type { MessageAttributeValue } from '@aws-sdk/client-sqs';

/** SQS takes at most 10 message attributes. */
export const SQS_MAX_ATTRIBUTES = 10;

/** Where the headers that do not fit as attributes of their own travel, as one JSON object. */
export const SQS_PACKED_HEADERS = 'X-Hookrail-Forwarded-Headers';

/**
 * A delivery's headers as SQS message attributes. The sender puts forwarded headers first and its
 * own and the signature headers last, so when there are more than SQS's 10, the last 9 stay
 * attributes of their own (the signature can always be read where a consumer expects it) and the
 * earlier ones are packed into one `X-Hookrail-Forwarded-Headers` attribute.
 */
export function sqsMessageAttributes(headers: Record<string, string>): Record<string, MessageAttributeValue> {
  const entries = Object.entries(headers);
  const packed =
    entries.length > SQS_MAX_ATTRIBUTES ? entries.slice(0, entries.length - (SQS_MAX_ATTRIBUTES - 1)) : [];
  const own = entries.slice(packed.length);
  const attributes: Record<string, MessageAttributeValue> = Object.fromEntries(
    own.map(([k, v]) => [k, { DataType: 'String', StringValue: v }]),
  );
  if (packed.length > 0)
    attributes[SQS_PACKED_HEADERS] = {
      DataType: 'String',
      StringValue: JSON.stringify(Object.fromEntries(packed)),
    };
  return attributes;
}
