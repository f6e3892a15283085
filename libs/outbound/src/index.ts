export * from './ssrf/ssrf-guard';
export * from './http/user-agent';
export * from './http/http-client';
export * from './oauth2/oauth2.types';
export * from './oauth2/client-assertion';
export * from './oauth2/fetch-token';
export * from './oauth2/token-cache';
export * from './auth/endpoint-auth';
