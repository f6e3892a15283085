export { flatten } from './flatten';
export { matchFilter } from './match-filter';
export { validateFilter } from './validate-filter';
export { eventTypePatternProblem, matchEventType } from './event-type';
export { resolvePath } from './resolve-path';
export { filterConfigAccepts, type FilterConfig, type FilterableEvent } from './filter-config';
export type { Filter } from './types';
