export * from './policy';
export * from './attempt-outcome';
export * from './scheduler';
