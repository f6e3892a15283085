export { createRouter, type RouterDeps } from './route-event';
export { eventDocument } from './event-document';
export * from './endpoint-event-counts';
