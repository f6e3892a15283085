export { DeliveryOrdering, orderingKeyOfDelivery, type Admission } from './delivery-ordering';
