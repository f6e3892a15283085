export * from './parse-body';
export * from './request-headers';
export * from './idempotency';
export * from './accept-request.usecase';
