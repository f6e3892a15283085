export * from './dead-letter.schema';
export * from './dead-letter.repository';
