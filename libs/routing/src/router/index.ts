export { createRouter, type RouterDeps } from './route-event';
export { eventDocument } from './event-document';
