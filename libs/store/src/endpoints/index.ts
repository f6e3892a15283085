export * from './endpoint.schema';
export * from './endpoint.repository';
