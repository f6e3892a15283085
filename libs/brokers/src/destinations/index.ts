export * from './destination-settings';
export * from './publisher';
export * from './publisher-cache';
export { SQS_MAX_ATTRIBUTES } from './sqs.publisher';
export * from './destination-guard';
