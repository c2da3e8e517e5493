import type { NextFunction, Request, Response } from 'express';
import { Unprocessable } from '../../core/errors.js';

/** Keys that name object machinery in JavaScript: refused, never silently dropped by a later copy. */
const MACHINERY_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
const wellFormed = (s: string): boolean => !LONE_SURROGATE.test(s);

/** The first problem in a parsed JSON body: a machinery key or a string with a lone surrogate. */
export function jsonProblem(body: unknown): { path: string; message: string } | undefined {
  // Iterative: a deeply nested body must not overflow the stack here (depth limits come later).
  const stack: [unknown, string][] = [[body, '$']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (!wellFormed(value))
        return { path, message: `${path} holds a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape), which is not text` };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[${i}]`]);
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        const at = `${path}.${key.replace(LONE_SURROGATES, '\uFFFD')}`;
        if (MACHINERY_KEYS.has(key))
          return { path: at, message: `The key "${key}" at ${path} is not accepted: it names JavaScript object machinery` };
        if (!wellFormed(key))
          return {
            path: at,
            message: `A key at ${path} holds a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape), which is not text`,
          };
        stack.push([(value as Record<string, unknown>)[key], at]);
      }
    }
  }
  return undefined;
}

/** 422 naming the problem, before any route sees the body. */
export function refuseUnsafeJson(req: Request, _res: Response, next: NextFunction): void {
  const problem = req.body === undefined ? undefined : jsonProblem(req.body);
  if (problem) {
    throw new Unprocessable(problem.message, {
      results: [
        {
          focusNode: problem.path,
          path: problem.path,
          message: problem.message,
          severity: 'Violation',
          sourceShape: 'JsonText',
          value: null,
        },
      ],
    });
  }
  next();
}
