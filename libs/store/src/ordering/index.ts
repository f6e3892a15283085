export * from './ordering.schema';
export * from './ordering.repository';
