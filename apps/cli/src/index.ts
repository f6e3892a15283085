export { runCli } from './program';
export type { Output } from './output';
