export * from './messages';
export * from './email';
export * from './slack';
export * from './endpoint-notifier';
export * from './meta-events';
