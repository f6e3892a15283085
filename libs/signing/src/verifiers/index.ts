export * from './types';
export * from './hmac.verifier';
export * from './providers';
export * from './verify-request';
