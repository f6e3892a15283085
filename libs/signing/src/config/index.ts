export * from './signature-config';
