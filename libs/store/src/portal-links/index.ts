export * from './portal-link.schema';
export * from './portal-link.repository';
