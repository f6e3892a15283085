export * from './policy';
export * from './scheduler';
