export * from './wait-for';
export * from './stack';
