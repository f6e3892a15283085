export * from './wait-for';
export * from './stack';
export * from './receiver';
export * from './tls-certs';
export * from './oauth2-server';
export * from './fixtures';
export * from './private-mongo';
export * from './documents';
