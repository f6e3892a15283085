export * from './hmac';
export * from './secrets';
export * from './simple';
export * from './advanced';
export * from './standard-webhooks';
export * from './signature-headers';
