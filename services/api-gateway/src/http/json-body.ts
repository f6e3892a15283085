import type { RequestHandler } from 'express';
import { parse as parseContentType } from 'content-type';
import getRawBody from 'raw-body';
import { DomainError, ValidationError } from '@hookrail/domain';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function isJson(header: string | undefined): boolean {
  if (!header) return false;
  // The usual value, without parsing it: content-type's parse was about 1 % of a busy gateway.
  if (header === 'application/json') return true;
  try {
    const type = parseContentType(header).type;
    return type === 'application/json' || type.endsWith('+json');
  } catch {
    return false;
  }
}

/**
 * Reads a JSON body with our own error mapping instead of express.json(): wrong content type 415,
 * too large 413, malformed 400, each with a message naming the problem. An empty body is `{}` so
 * body-less operations (resend, pause) work without a Content-Type.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  return async (req, _res, next) => {
    if (!BODY_METHODS.has(req.method)) return next();
    const length = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (!chunked && (length === undefined || length === '0')) {
      req.body = {};
      return next();
    }
    if (length !== undefined && Number(length) > limitBytes) {
      req.resume();
      return next(tooLarge(limitBytes));
    }
    let raw: string;
    try {
      raw = await getRawBody(req, { limit: limitBytes, encoding: 'utf8' });
    } catch (err) {
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') return next(tooLarge(limitBytes));
      return next(new ValidationError(`could not read the request body: ${(err as Error).message}`));
    }
    if (raw.trim() === '') {
      req.body = {};
      return next();
    }
    if (!isJson(req.headers['content-type'])) {
      const message = `Content-Type must be application/json (got ${req.headers['content-type'] ?? 'none'})`;
      return next(
        new DomainError('unsupported_media_type', message, {
          details: { errors: [{ field: 'Content-Type', message: 'must be application/json' }] },
        }),
      );
    }
    try {
      req.body = JSON.parse(raw);
    } catch (err) {
      return next(
        new ValidationError(`malformed JSON body: ${(err as Error).message}`, [
          { field: 'body', message: 'is not valid JSON' },
        ]),
      );
    }
    next();
  };
}

function tooLarge(limit: number): DomainError {
  return new DomainError('payload_too_large', `request body exceeds ${limit} bytes`, {
    details: { errors: [{ field: 'body', message: `exceeds ${limit} bytes` }] },
  });
}
