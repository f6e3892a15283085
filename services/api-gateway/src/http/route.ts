import type { Request, Response } from 'express';
import type { BodyOf, Operation, OperationSet } from '@hookrail/api-contract';
import type { ProjectDoc } from '@hookrail/store';
import type { Principal } from '../auth/principal';

export interface Call<B = unknown> {
  req: Request;
  /** For a streamed answer (an operation with `stream`): the handler writes it and the router does not. */
  res: Response;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: B;
  principal: Principal;
  /** Loaded for every path with `:projectID` (404 when it does not exist). */
  project: ProjectDoc;
}

/** What the gateway runs for one operation; the router validated the body against its schema. */
type Handler<O extends Operation> = (call: Call<BodyOf<O>>) => Promise<unknown>;

/** One handler for each operation of a set, typed by its body: a resource's handlers file returns this. */
export type Handlers<S extends OperationSet> = { [K in keyof S]: Handler<S[K]> };

/** An operation of the contract with the handler attached: what the router serves. */
export interface RouteSpec extends Operation {
  // method syntax: a handler typed for its operation's body is usable here
  handler(call: Call): Promise<unknown>;
}
