import { ValidationError, type ProjectId } from '@hookrail/domain';
import { flatten, matchFilter, validateFilter } from '@hookrail/filters';
import type { FunctionPool } from '@hookrail/functions';
import type { TestFilterBody, TestFunctionBody } from '@hookrail/api-contract';

/** test_filter: would a request with this body and headers pass these filters? (same engine as routing) */
export function testFilter(input: TestFilterBody): { is_match: boolean } {
  const errors = [
    ...validateFilter(input.schema.body ?? {}, 'schema.body'),
    ...validateFilter(input.schema.headers ?? {}, 'schema.headers'),
  ];
  if (errors.length > 0)
    throw new ValidationError(`invalid filter: ${errors[0].field} ${errors[0].message}`, errors);
  const headers = Object.fromEntries(
    Object.entries(input.request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  return {
    is_match:
      matchFilter(flatten(input.schema.body ?? {}), input.request.body ?? {}) &&
      matchFilter(flatten(input.schema.headers ?? {}), headers),
  };
}

/** test_function: runs the subscription function in the same sandbox as delivery; a failure is a 400. */
export async function testFunction(
  runner: FunctionPool,
  projectId: ProjectId,
  input: TestFunctionBody,
): Promise<{ payload: unknown }> {
  const result = await runner.run(input.function, input.payload, { scope: projectId });
  if (result.kind === 'error')
    throw new ValidationError(`the function failed: ${result.message}`, [
      { field: 'function', message: result.message },
    ]);
  return { payload: result.value };
}
