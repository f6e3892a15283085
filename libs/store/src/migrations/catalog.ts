import { baselineIndexes } from './0001-baseline-indexes';
import { auditLog } from './0002-audit-log';
import { listKeys } from './0003-list-keys';
import { changeStreamOffsets } from './0004-change-stream-offsets';
import { people } from './0005-people';
import { retryOutcomes } from './0006-retry-outcomes';
import type { Migration } from './migration';

/**
 * Every migration, in the order they apply. A schema change that needs the database changed (an
 * index added or dropped, documents rewritten) adds the next one here, in a file of its own named
 * after it, and is idempotent (docs/database.md, "Migrations").
 */
export const MIGRATIONS: readonly Migration[] = [
  baselineIndexes,
  auditLog,
  listKeys,
  changeStreamOffsets,
  people,
  retryOutcomes,
];
