import { RE2JS } from 're2js';
import { boundedLru } from '@hookrail/toolbox';

/**
 * `$regex` patterns run on RE2 (re2js, a pure-JS port): matching is linear in the input, so a
 * pattern like `(a+)+$` cannot pin a core on a long field (ReDoS). RE2 has no backreferences or
 * lookaround; such patterns are refused when a subscription is saved.
 */
type CompiledRegex = { ok: true; re: RE2JS } | { ok: false; message: string };

/** Compiled patterns kept warm: bounded by distinct live patterns, evicted least recently used. */
const compiled = boundedLru<string, CompiledRegex>(2_000);

function compileRegex(pattern: string): CompiledRegex {
  let c = compiled.get(pattern);
  if (!c) {
    try {
      c = { ok: true, re: RE2JS.compile(pattern) };
    } catch (err) {
      c = { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    compiled.set(pattern, c);
  }
  return c;
}

/** Whether `pattern` occurs in `text` (unanchored, as JavaScript's `test`); an invalid pattern never matches. */
export function regexTest(pattern: string, text: string): boolean {
  const c = compileRegex(pattern);
  return c.ok && c.re.test(text);
}

/** The reason a pattern is refused, or undefined when RE2 accepts it. */
export function regexProblem(pattern: string): string | undefined {
  const c = compileRegex(pattern);
  return c.ok ? undefined : `is not a valid RE2 regular expression (${c.message})`;
}

/** Number of compiled patterns held (for tests of the bound). */
export function regexCacheSize(): number {
  return compiled.size;
}
