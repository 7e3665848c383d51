import type { z } from 'zod';
import { AppError } from './app-error';

/** Turns the first zod issue into a clear 400: "x is required", "x is too long" or "not valid: x: …". */
export function validationError(error: z.ZodError, where: 'body' | 'query' | 'params'): AppError {
  const issue = error.issues[0];
  const field = issue.path.length ? issue.path.join('.') : where;
  if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null)) {
    return new AppError(400, 'validation.required', { field });
  }
  if (issue.code === 'too_big' && issue.origin === 'string') return new AppError(400, 'validation.tooLong', { field });
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1) {
    return new AppError(400, 'validation.required', { field });
  }
  return new AppError(400, 'validation.invalid', { detail: `${field}: ${issue.message}` });
}
