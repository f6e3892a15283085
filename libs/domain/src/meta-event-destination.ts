/** The meta event settings of a project that decide where (and whether) a meta event goes. */
export interface MetaEventSettings {
  is_enabled?: boolean;
  url?: string;
  secret?: string;
  /** Selected types; empty: every type. */
  event_type?: string[];
}

export type MetaEventDestination =
  { kind: 'send'; url: string; secret: string } | { kind: 'discard'; reason: string };

/**
 * Whether a meta event goes out, judged on the project's settings: enabled, a URL, and the type
 * selected (an empty selection means every type). The meta-event service decides at send time (so
 * enabling meta events and resending an earlier one sends it); the dispatcher asks first and does
 * not publish delivery outcomes nobody will receive.
 */
export function metaEventDestination(
  settings: MetaEventSettings | undefined,
  eventType: string,
): MetaEventDestination {
  if (!settings?.is_enabled) return { kind: 'discard', reason: 'meta events are disabled for the project' };
  if (!settings.url) return { kind: 'discard', reason: 'the project has no meta event URL' };
  const selected = settings.event_type ?? [];
  if (selected.length > 0 && !selected.includes(eventType))
    return { kind: 'discard', reason: `meta event type ${eventType} is not selected` };
  return { kind: 'send', url: settings.url, secret: settings.secret ?? '' };
}
