export * from './hmac';
export * from './secrets';
export * from './scheme';
export * from './simple';
export * from './advanced';
export * from './standard-webhooks';
export * from './registry';
export * from './signature-headers';
