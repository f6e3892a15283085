export { ConfigVersionRepository, INITIAL_CONFIG_TOKEN } from './config-version.repository';
export type { ConfigVersionDoc } from './config-version.schema';
