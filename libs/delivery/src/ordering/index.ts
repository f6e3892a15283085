export { DeliveryOrdering } from './delivery-ordering';
export { orderingKeyOfDelivery, type Admission } from './key-state';
