export * from './health';
export * from './service';
