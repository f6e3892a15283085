import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; field names are stable: project_id, event_id, delivery_id, endpoint_id. */
export function createLogger(opts: { service: string; level?: string; instanceId?: string }): Logger {
  return pino({
    level: opts.level ?? 'info',
    base: { service: opts.service, instance: opts.instanceId },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        '*.password',
        '*.secret',
        '*.client_secret',
      ],
      censor: '[redacted]',
    },
  });
}
