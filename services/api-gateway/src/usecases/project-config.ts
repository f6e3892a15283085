import { randomToken } from '@hookrail/domain';
import { DEFAULT_PROJECT_CONFIG, type ProjectConfig } from '@hookrail/store';

type ConfigInput = { [K in keyof ProjectConfig]?: Partial<ProjectConfig[K]> | ProjectConfig[K] };

/** Merges a partial config over the stored one (or the defaults), one level deep. */
export function mergeProjectConfig(base: ProjectConfig | undefined, input: ConfigInput = {}): ProjectConfig {
  const current = base ?? DEFAULT_PROJECT_CONFIG;
  const merged: Record<string, unknown> = { ...DEFAULT_PROJECT_CONFIG, ...current };
  for (const [key, value] of Object.entries(input)) {
    const prev = merged[key];
    merged[key] =
      value && typeof value === 'object' && !Array.isArray(value) && prev && typeof prev === 'object'
        ? { ...(prev as object), ...value }
        : value;
  }
  const config = merged as unknown as ProjectConfig;
  // Meta events are signed; an enabled configuration without a secret gets one (shown in the config).
  if (config.meta_event.is_enabled && !config.meta_event.secret)
    config.meta_event = { ...config.meta_event, secret: randomToken(32) };
  return config;
}
