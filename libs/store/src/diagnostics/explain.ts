import type { Connection } from 'mongoose';

/** The shape of a query plan, for reports: which stages ran and how much they read. */
export interface PlanSummary {
  collection: string;
  /** `find` or `findOne`. */
  operation: string;
  /** Winning plan from the top stage down, e.g. `LIMIT > FETCH > IXSCAN`. */
  stages: string[];
  /** Index names the plan scans. */
  indexes: string[];
  keysExamined: number;
  docsExamined: number;
  returned: number;
  executionMs: number;
}

interface Operation {
  collectionName: string;
  method: string;
  params: unknown[];
}

interface PlanStage {
  stage?: string;
  indexName?: string;
  inputStage?: PlanStage;
  inputStages?: PlanStage[];
  queryPlan?: PlanStage;
}

const EXPLAINED = new Set(['find', 'findOne']);

/**
 * Runs `fn` and explains every query it sent (`find`, `findOne`), as the server
 * plans it (`executionStats`). The reads are captured from mongoose's operation events, so what is
 * explained is exactly what the repository method sent. For benchmarks and diagnostics: reads made
 * by anything else on the connection meanwhile are captured too.
 */
export async function explainReads<T>(
  conn: Connection,
  fn: () => Promise<T>,
): Promise<{ result: T; plans: PlanSummary[] }> {
  const seen: Operation[] = [];
  const listener = (op: Operation) => {
    if (EXPLAINED.has(op.method)) seen.push(op);
  };
  conn.on('operation-start', listener);
  let result: T;
  try {
    result = await fn();
  } finally {
    conn.off('operation-start', listener);
  }
  const plans: PlanSummary[] = [];
  for (const op of seen) plans.push(await explainOne(conn, op));
  return { result, plans };
}

async function explainOne(conn: Connection, op: Operation): Promise<PlanSummary> {
  if (!conn.db) throw new Error('not connected');
  const [filter, options] = op.params as [Record<string, unknown>, Record<string, unknown> | undefined];
  const opts = options ?? {};
  const find = {
    find: op.collectionName,
    filter: filter ?? {},
    ...(opts.sort ? { sort: opts.sort } : {}),
    ...(opts.projection ? { projection: opts.projection } : {}),
    ...(op.method === 'findOne' ? { limit: 1 } : opts.limit ? { limit: opts.limit } : {}),
  };
  const out = (await conn.db.command({ explain: find, verbosity: 'executionStats' })) as {
    queryPlanner?: { winningPlan?: PlanStage };
    executionStats?: {
      totalKeysExamined?: number;
      totalDocsExamined?: number;
      nReturned?: number;
      executionTimeMillis?: number;
    };
  };
  const winning = out.queryPlanner?.winningPlan;
  const stages: string[] = [];
  const indexes: string[] = [];
  walk(winning, stages, indexes);
  const stats = out.executionStats ?? {};
  return {
    collection: op.collectionName,
    operation: op.method,
    stages,
    indexes: [...new Set(indexes)],
    keysExamined: stats.totalKeysExamined ?? 0,
    docsExamined: stats.totalDocsExamined ?? 0,
    returned: stats.nReturned ?? 0,
    executionMs: stats.executionTimeMillis ?? 0,
  };
}

function walk(stage: PlanStage | undefined, stages: string[], indexes: string[]): void {
  if (!stage) return;
  const s = stage.queryPlan ?? stage;
  if (s.stage) stages.push(s.stage);
  if (s.indexName) indexes.push(s.indexName);
  if (s.inputStage) walk(s.inputStage, stages, indexes);
  for (const child of s.inputStages ?? []) walk(child, stages, indexes);
}
