import type { z } from 'zod';
import { WHOLE_NUMBER_MESSAGE } from '@pm/shared';
import { AppError } from './app-error';

/** The value at a zod issue's path in the raw input (undefined when absent). */
function valueAt(raw: unknown, path: PropertyKey[]): unknown {
  let value = raw;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Turns the first zod issue into a clear 400: "x is required", "x is too long", "x must be a
 * whole number" or "not valid: x: …". `raw` is the input that was parsed (to tell a missing
 * value from a wrong one).
 */
export function validationError(error: z.ZodError, where: 'body' | 'query' | 'params', raw?: unknown): AppError {
  const issue = error.issues[0];
  const field = issue.path.length ? issue.path.join('.') : where;
  const value = issue.path.length ? valueAt(raw, issue.path) : raw;
  if (issue.code !== 'unrecognized_keys' && (value === undefined || value === null)) {
    return new AppError(400, 'validation.required', { field });
  }
  if (issue.message === WHOLE_NUMBER_MESSAGE) return new AppError(400, 'validation.wholeNumber', { field });
  if (issue.code === 'too_big' && issue.origin === 'string') return new AppError(400, 'validation.tooLong', { field });
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1) {
    return new AppError(400, 'validation.required', { field });
  }
  return new AppError(400, 'validation.invalid', { detail: `${field}: ${issue.message}` });
}
