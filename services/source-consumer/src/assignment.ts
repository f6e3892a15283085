/**
 * Which broker sources this replica runs: those whose project id the config topic's partitioner
 * puts on a partition the Kafka group assigned to it. Config changes are keyed by project id, so
 * the replica that runs a source is also the one that receives its changes.
 */
export function ownedSources<S extends { _id: string; project_id: string }>(
  sources: readonly S[],
  partitionOf: (projectId: string) => number,
  assigned: ReadonlySet<number>,
): S[] {
  return sources.filter((s) => assigned.has(partitionOf(s.project_id)));
}
