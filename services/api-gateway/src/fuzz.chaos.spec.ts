import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { localStackPath } from '@hookrail/testkit';
import { GatewayHarness } from './testing/gateway-harness';

jest.setTimeout(600_000);

const run = promisify(execFile);

/** schemathesis, installed by `deploy/local/provision.sh --test-tools`. */
function schemathesis(): string {
  const bin = localStackPath('SCHEMATHESIS_BIN');
  if (!bin) throw new Error('schemathesis is missing: run `bash deploy/local/provision.sh --test-tools`');
  return bin;
}

/**
 * Fuzzing of every operation of the served OpenAPI document (schemathesis, fixed seed, bounded
 * examples): no answer is a 5xx, every answer matches its documented schema, status code and
 * content type. The project path parameter is the test's own project, so the operations run past
 * authorisation into validation and the handlers.
 */
/** One schemathesis run: its exit code (or the signal that ended it) and everything it printed. */
function fuzz(args: string[], cwd: string): Promise<{ code: number; signal?: string; text: string }> {
  return run(schemathesis(), args, { cwd, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ code: 0, text: r.stdout + r.stderr }),
    (e: { code?: number | null; signal?: string | null; stdout?: string; stderr?: string }) => ({
      code: e.code ?? -1,
      ...(e.signal ? { signal: e.signal } : {}),
      text: `${e.stdout ?? ''}${e.stderr ?? ''}`,
    }),
  );
}

describe('API fuzzing', () => {
  const h = new GatewayHarness();
  let dir: string;

  beforeAll(async () => {
    await h.start();
    dir = mkdtempSync(path.join(tmpdir(), 'hookrail-fuzz-'));
  });

  afterAll(async () => {
    await h.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds no 5xx, no schema violation and no crash over every operation', async () => {
    const project = await h.createProject('outgoing');
    writeFileSync(path.join(dir, 'schemathesis.toml'), `[parameters]\n"path.projectID" = "${project.id}"\n`);
    const args = [
      'run',
      `${h.gateway.url}/api/openapi.json`,
      '-H',
      `Authorization: Bearer ${project.key}`,
      '--checks',
      'not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance',
      '--seed',
      '42',
      '--max-examples',
      '3',
      '--phases',
      'coverage,fuzzing',
      '--workers',
      '2',
      '--request-timeout',
      '10',
      '--no-color',
    ];
    // A run killed by a signal before its summary is the tool dying (CI saw one end after its
    // header), not an answer of ours: it runs once more, and a second death fails the test.
    let out = await fuzz(args, dir);
    if (out.signal) {
      console.log(`schemathesis killed by ${out.signal} before its summary; running it again`);
      out = await fuzz(args, dir);
    }
    // "N generated, N passed" only when no check failed; with failures the line counts them instead.
    const cases = /(\d+) generated, (\d+) passed\s*$/m.exec(out.text);
    const operations = /Tested: (\d+)/.exec(out.text);
    const toolErrors = /Runtime Error: (\d+)/.exec(out.text)?.[1] ?? '0';
    // The figures for the record (visible in the test log). A runtime error is schemathesis failing
    // to generate a case (its own bug), not an answer of ours; it is reported, not failed on.
    console.log(
      `schemathesis exit ${out.signal ?? out.code}: ${cases?.[0] ?? 'no clean summary'}; operations tested: ${operations?.[1] ?? '?'}; tool errors: ${toolErrors}`,
    );
    if (!cases || cases[1] !== cases[2])
      throw new Error(
        `schemathesis found problems (exit ${out.signal ?? out.code}):\n${out.text.slice(-8000)}`,
      );
    expect(Number(operations?.[1])).toBeGreaterThanOrEqual(50);
    expect(Number(cases[1])).toBeGreaterThan(1000);
  });
});
