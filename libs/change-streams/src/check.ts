import { errorMessage } from '@hookrail/domain';
import type { Db, Document, MongoClient } from 'mongodb';
import pTimeout from 'p-timeout';
import { ChangeStreamSettingsError, changeStreamClient, describeDatabase } from './connect';
import { checkPostgres } from './postgres/pg-check';
import {
  changePipeline,
  fullDocumentOption,
  type ChangeStreamProblem,
  type ChangeStreamSettings,
  type MongoChangeStreamSettings,
} from './settings';

const CHECK_TIMEOUT_MS = 5000;
const F = 'db_change_stream';

/** What trying a source's settings found: a problem, or (MongoDB) where the stream stood then. */
export interface ChangeStreamCheck {
  problem?: ChangeStreamProblem;
  /**
   * MongoDB: the stream's resume token after its first (empty) batch, the server's position when
   * the source was checked. Stored with the source as its starting point, so a change committed
   * after the API's answer is read even if the source-consumer opens the stream later.
   */
  startToken?: Document;
}

/**
 * Tries a source's settings against its database, so the API refuses a source that could never
 * stream (a field of the other database type, an unreachable host, refused credentials…); for
 * postgres see pg-check.ts (its slot keeps the place). Undefined when the settings work.
 */
export async function checkChangeStream(s: ChangeStreamSettings): Promise<ChangeStreamProblem | undefined> {
  return (await checkChangeStreamStart(s)).problem;
}

/** checkChangeStream, with the starting point a MongoDB source reads from when it has no offset. */
export async function checkChangeStreamStart(s: ChangeStreamSettings): Promise<ChangeStreamCheck> {
  if (s.invalid) return { problem: s.invalid };
  if (s.type === 'postgres') return { problem: await checkPostgres(s) };
  return checkMongo(s);
}

/**
 * Connects and opens the change stream once: an unreachable host, refused credentials, a
 * standalone server, a missing collection, a `$match` the server rejects are each a problem.
 */
async function checkMongo(s: MongoChangeStreamSettings): Promise<ChangeStreamCheck> {
  let client: MongoClient;
  try {
    client = changeStreamClient(s, CHECK_TIMEOUT_MS - 1000);
  } catch (err) {
    if (err instanceof ChangeStreamSettingsError)
      return { problem: { field: err.field, message: err.message } };
    throw err;
  }
  try {
    return await pTimeout(checkWith(client, s), {
      milliseconds: CHECK_TIMEOUT_MS,
      fallback: () => ({
        problem: {
          field: `${F}.connection_string`,
          message: `no answer from ${describeDatabase(s)} within ${CHECK_TIMEOUT_MS} ms`,
        },
      }),
    });
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function checkWith(client: MongoClient, s: MongoChangeStreamSettings): Promise<ChangeStreamCheck> {
  const where = describeDatabase(s);
  try {
    await client.connect();
  } catch (err) {
    const msg = errorMessage(err);
    const field = `${F}.connection_string`;
    if (/auth|credential|password/i.test(msg))
      return { problem: { field, message: `${where} refused the credentials: ${msg}` } };
    return { problem: { field, message: `cannot connect to ${where}: ${msg}` } };
  }
  const db = client.db(s.database);
  const problem = (await replicaSetProblem(db, where)) ?? (await collectionsProblem(db, s));
  return problem ? { problem } : openStream(db, s);
}

/** Change streams read the oplog, which only a replica set (or a sharded cluster) keeps. */
async function replicaSetProblem(db: Db, where: string): Promise<ChangeStreamProblem | undefined> {
  const hello = await db.admin().command({ hello: 1 });
  if (hello.setName || hello.msg === 'isdbgrid') return undefined;
  return {
    field: `${F}.connection_string`,
    message: `change streams need a replica set: ${where} is a standalone server (start it with --replSet)`,
  };
}

async function collectionsProblem(
  db: Db,
  s: MongoChangeStreamSettings,
): Promise<ChangeStreamProblem | undefined> {
  if (s.collections.length === 0) return undefined;
  const names = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  const missing = s.collections.filter((c) => !names.has(c));
  if (missing.length === 0) return undefined;
  return {
    field: `${F}.collections`,
    message: `no collection ${missing.map((m) => `"${m}"`).join(', ')} in database "${s.database}"`,
  };
}

/**
 * Opens the stream once: the server parses the pipeline (the user's `$match` included) and the
 * rights, and its first batch's `postBatchResumeToken` is where the stream stands now.
 */
async function openStream(db: Db, s: MongoChangeStreamSettings): Promise<ChangeStreamCheck> {
  const stream = db.watch(changePipeline(s), { ...fullDocumentOption(s), maxAwaitTimeMS: 50 });
  try {
    // The first batch of a new stream is all but always empty (it starts when opened); were a
    // change in it, its token is the point: that change precedes the API's answer.
    await stream.tryNext();
    return { startToken: (stream.resumeToken as Document | null) ?? undefined };
  } catch (err) {
    const field = s.match ? `${F}.match` : `${F}.connection_string`;
    return { problem: { field, message: `the database refused the change stream: ${errorMessage(err)}` } };
  } finally {
    await stream.close().catch(() => undefined);
  }
}
