export * from './parse-body';
export * from './request-headers';
export * from './idempotency';
export * from './prepare-event';
export * from './publish-accepted';
export * from './broker-envelope';
export * from './accept-request.usecase';
export * from './accept-message.usecase';
