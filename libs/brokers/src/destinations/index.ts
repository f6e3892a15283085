export * from './destination-settings';
export * from './publisher';
export * from './publisher-cache';
export { SQS_MAX_ATTRIBUTES, SQS_PACKED_HEADERS } from './sqs-attributes';
export * from './destination-guard';
