import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; field names are stable: project_id, event_id, delivery_id, endpoint_id. */
export function createLogger(opts: {
  service: string;
  level?: string;
  instanceId?: string;
  /** Where lines go; stdout when omitted (tests capture them). */
  destination?: pino.DestinationStream;
}): Logger {
  const options: pino.LoggerOptions = {
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
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
