export { startDevIdp, type DevIdp, type DevIdpOptions } from './provider';
export { DEMO_USERS, type DemoUser } from './users';
