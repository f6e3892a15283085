export * from './project.schema';
export * from './project.repository';
