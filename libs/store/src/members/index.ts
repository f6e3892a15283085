export * from './member.schema';
export * from './member.repository';
