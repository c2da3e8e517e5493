import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../../core/errors.js';
import type { ApiOperation } from './api-operation.js';

interface KnownPath {
  pattern: RegExp;
  methods: Set<string>;
}

/** An OpenAPI path as express matches it: each `{param}` one segment, any case, an optional trailing slash. */
function patternOf(path: string): RegExp {
  const escaped = path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${escaped}/?$`, 'i');
}

/**
 * A method that no route serves on a path the API has answers `405` with `Allow` (RFC 9110 15.5.6),
 * not `404 No route`: the path exists, the method does not. Decided from the operations the routes
 * declare (the same list the OpenAPI document is made of), before credentials are asked for, since
 * which methods a path has is public in /openapi.json. OPTIONS passes on (CORS preflights).
 */
export function methodNotAllowed(operations: readonly ApiOperation[]) {
  const known = new Map<string, KnownPath>();
  for (const op of operations) {
    const entry = known.get(op.path) ?? { pattern: patternOf(op.path), methods: new Set<string>() };
    entry.methods.add(op.method.toUpperCase());
    if (op.method === 'get') entry.methods.add('HEAD');
    known.set(op.path, entry);
  }
  const paths = [...known.values()];
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.method === 'OPTIONS') return next();
    const allowed = new Set<string>();
    for (const { pattern, methods } of paths) if (pattern.test(req.path)) for (const m of methods) allowed.add(m);
    if (allowed.size === 0 || allowed.has(req.method)) return next();
    const allow = [...allowed].join(', ');
    throw new HttpError(405, 'MethodNotAllowed', `${req.method} is not served at ${req.path}; it answers ${allow}`, undefined, {
      Allow: allow,
    });
  };
}
