export * from './health';
export * from './service';
export * from './access-log';
export * from './dependency-watch';
export * from './setup';
export * from './rate-limit';
