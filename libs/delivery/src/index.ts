export * from './sender';
export * from './ordering';
