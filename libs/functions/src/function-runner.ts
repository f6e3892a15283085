import { createHash } from 'node:crypto';
import type { LRUCache } from 'lru-cache';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten';
import { boundedLru } from '@hookrail/toolbox';
import { threadCpuMs } from './call-deadline';

export interface FunctionLimits {
  /** CPU budget of one call, compilation included. */
  timeoutMs?: number;
  /** Heap limit of the function's runtime. */
  memoryBytes?: number;
}

export interface RunOptions extends FunctionLimits {
  /** Cache namespace, usually the project id, so projects never share a context. */
  scope?: string;
}

export type FunctionResult = { kind: 'ok'; value: unknown } | { kind: 'error'; message: string };

export interface FunctionRunnerOptions extends FunctionLimits {
  /** Compiled functions kept warm. */
  maxCached?: number;
  /**
   * This thread's CPU time in ms (a parameter for tests). The budget is of CPU: a thread
   * descheduled on a busy host (or a throttled container) is not charged for the time it did not
   * run, so a quick function is never stopped for the host's load.
   */
  cpuMs?: () => number;
}

export const DEFAULT_TIMEOUT_MS = 100;
export const DEFAULT_MEMORY_BYTES = 32 * 1024 * 1024;
const STACK_BYTES = 256 * 1024;

/** Runs after the user's text: checks the `transform` convention and moves JSON in and out. */
const BRIDGE = `(function () {
  if (typeof transform !== 'function') {
    throw new TypeError('the function must define transform(payload) and return the new payload');
  }
  var t = transform;
  globalThis.__hookrail_run = function (input) {
    var out = t(JSON.parse(input));
    if (out === undefined) throw new TypeError('transform returned undefined; return the changed value');
    if (out !== null && typeof out.then === 'function') throw new TypeError('transform must not be async');
    var json = JSON.stringify(out);
    if (json === undefined) throw new TypeError('transform returned a value that is not JSON');
    return json;
  };
})();`;

/**
 * The release-sync variant loads its emscripten module with a dynamic `import()`, which jest
 * (CommonJS, no --experimental-vm-modules) cannot run; the same module is also published as
 * CommonJS, so load that one with require.
 */
const variant = {
  ...releaseSync,
  importModuleLoader: () =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    Promise.resolve(require('@jitl/quickjs-wasmfile-release-sync/emscripten-module')),
};
let quickjsModule: Promise<QuickJSWASMModule> | undefined;
const loadQuickJS = () => (quickjsModule ??= newQuickJSWASMModuleFromVariant(variant));

interface Compiled {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  run: QuickJSHandle;
}

/**
 * The quickjs sandbox for source header/body functions and subscription functions. A function
 * text is compiled once into its own runtime + context (its own heap and memory limit) and kept
 * in an LRU; each call gets a fresh deadline enforced by the interrupt handler. After any error
 * the context is thrown away, so a half-finished run never leaks state into the next one. The
 * sandbox has no host bindings: no require, network, timers or filesystem.
 *
 * Calls are synchronous and bounded by `timeoutMs`, so one service instance owns one runner.
 */
export class FunctionRunner {
  private readonly cache: LRUCache<string, Compiled>;

  private constructor(
    private readonly quickjs: QuickJSWASMModule,
    private readonly defaults: Required<FunctionLimits>,
    maxCached: number,
    private readonly cpuMs: () => number,
  ) {
    this.cache = boundedLru<string, Compiled>(maxCached, { dispose: (c) => dispose(c) });
  }

  static async create(opts: FunctionRunnerOptions = {}): Promise<FunctionRunner> {
    const defaults = {
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      memoryBytes: opts.memoryBytes ?? DEFAULT_MEMORY_BYTES,
    };
    return new FunctionRunner(
      await loadQuickJS(),
      defaults,
      opts.maxCached ?? 200,
      opts.cpuMs ?? threadCpuMs,
    );
  }

  /** Calls `transform(input)` of `source` with a JSON copy of `input`; returns its JSON result. */
  run(source: string, input: unknown, opts: RunOptions = {}): FunctionResult {
    const timeoutMs = opts.timeoutMs ?? this.defaults.timeoutMs;
    const memoryBytes = opts.memoryBytes ?? this.defaults.memoryBytes;
    const key = `${opts.scope ?? ''}:${createHash('sha256').update(source).digest('base64url')}`;
    const deadline = this.cpuMs() + timeoutMs;
    let interrupted = false;
    const arm = (runtime: QuickJSRuntime) => {
      runtime.setMemoryLimit(memoryBytes);
      runtime.setInterruptHandler(() => (interrupted = this.cpuMs() > deadline));
    };
    const failure = (message: string): FunctionResult => {
      if (interrupted) return { kind: 'error', message: `function timed out after ${timeoutMs} ms` };
      if (/out of memory/i.test(message))
        return { kind: 'error', message: 'function exceeded its memory limit' };
      return { kind: 'error', message };
    };

    let compiled = this.cache.get(key);
    if (compiled) {
      arm(compiled.runtime);
    } else {
      const made = this.compile(source, arm);
      if (typeof made === 'string') return failure(made);
      compiled = made;
      this.cache.set(key, compiled);
    }
    const outcome = call(compiled.context, compiled.run, JSON.stringify(input ?? null));
    compiled.runtime.removeInterruptHandler();
    if (outcome.kind === 'ok') return outcome;
    // A failed run may leave the context half-changed: never reuse it.
    this.cache.delete(key);
    return failure(outcome.message);
  }

  /** Drops every cached context (service shutdown). */
  clear(): void {
    this.cache.clear();
  }

  /** The compiled function, or the error text of a function that does not compile. */
  private compile(source: string, arm: (rt: QuickJSRuntime) => void): Compiled | string {
    const runtime = this.quickjs.newRuntime();
    runtime.setMaxStackSize(STACK_BYTES);
    arm(runtime);
    const context = runtime.newContext();
    for (const [code, file] of [
      [source, 'function.js'],
      [BRIDGE, 'bridge.js'],
    ]) {
      const result = context.evalCode(code, file);
      if (result.error) {
        const message = errorText(context, result.error);
        result.error.dispose();
        runtime.removeInterruptHandler();
        context.dispose();
        runtime.dispose();
        return message;
      }
      result.value.dispose();
    }
    const run = context.getProp(context.global, '__hookrail_run');
    return { runtime, context, run };
  }
}

function call(context: QuickJSContext, run: QuickJSHandle, inputJson: string): FunctionResult {
  const arg = context.newString(inputJson);
  const result = context.callFunction(run, context.undefined, arg);
  arg.dispose();
  if (result.error) {
    const message = errorText(context, result.error);
    result.error.dispose();
    return { kind: 'error', message };
  }
  const json = context.getString(result.value);
  result.value.dispose();
  return { kind: 'ok', value: JSON.parse(json) };
}

function errorText(context: QuickJSContext, handle: QuickJSHandle): string {
  const err: unknown = context.dump(handle);
  if (err && typeof err === 'object' && 'message' in err) {
    const { name, message } = err as { name?: unknown; message?: unknown };
    return name ? `${String(name)}: ${String(message)}` : String(message);
  }
  return `function threw ${JSON.stringify(err) ?? String(err)}`;
}

function dispose(c: Compiled): void {
  c.run.dispose();
  c.context.dispose();
  c.runtime.dispose();
}
