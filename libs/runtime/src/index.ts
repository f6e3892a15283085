export * from './health';
export * from './service';
export * from './access-log';
export * from './http-spans';
export * from './dependency-watch';
export * from './setup';
export * from './rate-limit';
