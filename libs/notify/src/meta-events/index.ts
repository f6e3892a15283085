export { handleMetaMessage, type MetaDeps, type MetaOutcome } from './handle-meta-message';
