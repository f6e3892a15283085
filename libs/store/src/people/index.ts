export * from './person.schema';
export * from './person.repository';
