export { createRouter, type RouterDeps } from './route-event';
export { eventDocument } from './event-document';
export { firstSendMessage, plannedDelivery } from './delivery-plan';
