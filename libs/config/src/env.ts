import { isIP } from 'node:net';

/** Small typed readers over an env record; each throws a ConfigError naming the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

export function str(env: Env, name: string, fallback?: string): string {
  const v = env[name];
  if (v !== undefined && v !== '') return v;
  if (fallback !== undefined) return fallback;
  throw new ConfigError(`${name} is required`);
}

export function optionalStr(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

export function int(
  env: Env,
  name: string,
  fallback: number,
  opts: { min?: number; max?: number } = {},
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  if (opts.min !== undefined && n < opts.min)
    throw new ConfigError(`${name} must be >= ${opts.min}, got ${n}`);
  if (opts.max !== undefined && n > opts.max)
    throw new ConfigError(`${name} must be <= ${opts.max}, got ${n}`);
  return n;
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

export function list(env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Comma-separated proxies whose X-Forwarded-For is believed: IP addresses, CIDR ranges
 * (`10.0.0.0/8`) or Express' names `loopback`, `linklocal`, `uniquelocal`. Empty: none.
 */
export function proxyList(env: Env, name: string): string[] {
  const entries = list(env, name, []);
  for (const entry of entries) {
    if (PROXY_NAMES.includes(entry)) continue;
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxPrefix = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (family === 0 || !prefixOk || rest.length > 0)
      throw new ConfigError(
        `${name}: "${entry}" is not an IP address, a CIDR range or one of ${PROXY_NAMES.join(', ')}`,
      );
  }
  return entries;
}
