// Transitional: route files not yet split into a contract and handlers. Removed once empty.
import type { Static, TSchema } from '@sinclair/typebox';
import type { Operation } from '@hookrail/api-contract';
import type { Call, RouteSpec } from './route';

export interface LegacyRouteSpec<B = unknown> extends Omit<Operation, 'surface'> {
  handler(call: Call<B>): Promise<unknown>;
}
export type RouteFile<D> = (deps: D) => LegacyRouteSpec[];
interface BodyRoute<S extends TSchema> extends Omit<LegacyRouteSpec, 'body' | 'handler'> {
  body: S;
  handler(call: Call<Static<NoInfer<S>>>): Promise<unknown>;
}
export function route<S extends TSchema>(spec: BodyRoute<S>): LegacyRouteSpec {
  return spec as LegacyRouteSpec;
}
export const legacyRoutes = (specs: LegacyRouteSpec[]): RouteSpec[] =>
  specs.map((s) => ({ ...s, surface: 'api' }) as RouteSpec);
