import type { z } from 'zod';
import { WHOLE_NUMBER_MESSAGE, type Language } from '@pm/shared';
import { AppError } from './app-error';
import { hasMessage, translate } from './translate';

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
 * A field's name as people read it, from the `fields.*` table of locales (`dealNote` → "deal
 * note" / "处理说明" / "處理說明"): the last named step of the path (`list.0.content` →
 * content); the wire name when the table has none; where the input came from when no field.
 */
export function fieldName(lang: Language, path: PropertyKey[], where: 'body' | 'query' | 'params'): string {
  const named = [...path].reverse().find((p): p is string => typeof p === 'string');
  const key = `fields.${named ?? where}`;
  return hasMessage(key) ? translate(lang, key) : (named ?? where);
}

/** The kinds of value zod expects, as the rules say them. */
const EXPECTED = new Set(['number', 'string', 'boolean', 'array', 'object', 'date']);

/**
 * Turns the first zod issue into a clear, fully translated 400 in the request's language: the
 * field's name and the rule it broke ("处理说明不能超过 2000 个字符", "page must be at least
 * 1"), never zod's English. `raw` is the input that was parsed (to tell a missing value from a
 * wrong one).
 */
export function validationError(
  error: z.ZodError,
  where: 'body' | 'query' | 'params',
  raw?: unknown,
  lang: Language = 'en',
): AppError {
  const issue = error.issues[0];
  const field = fieldName(lang, issue.path, where);
  const value = issue.path.length ? valueAt(raw, issue.path) : raw;
  const rule = (key: string, params: Record<string, string | number> = {}) =>
    new AppError(400, `validation.rules.${key}`, { field, ...params });

  if (issue.code === 'unrecognized_keys') {
    const name = issue.keys[0] ?? '';
    return rule('unknownField', { field: fieldName(lang, [...issue.path, name], where) });
  }
  if (value === undefined || value === null) return new AppError(400, 'validation.required', { field });
  if (issue.message === WHOLE_NUMBER_MESSAGE) return new AppError(400, 'validation.wholeNumber', { field });
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string')
        return min <= 1 ? new AppError(400, 'validation.required', { field }) : rule('tooShort', { min });
      if (issue.origin === 'array' || issue.origin === 'set') return rule('tooFew', { min });
      return rule('tooSmall', { min });
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return rule('tooLong', { max });
      if (issue.origin === 'array' || issue.origin === 'set') return rule('tooMany', { max });
      return rule('tooBig', { max });
    }
    case 'invalid_type':
      return EXPECTED.has(issue.expected)
        ? rule('wrongType', { expected: translate(lang, `validation.rules.expected.${issue.expected}`) })
        : rule('invalid');
    case 'invalid_value':
      // Word options are named in the person's language (`validation.optionNames.in` → 上班).
      return rule('oneOf', {
        options: issue.values
          .map(String)
          .map((v) => (hasMessage(`validation.optionNames.${v}`) ? translate(lang, `validation.optionNames.${v}`) : v))
          .join(', '),
      });
    case 'invalid_format':
      return rule(issue.format === 'email' ? 'email' : 'format');
    case 'custom':
      // A shared schema's own rule names its message key (`ads.errors.link`).
      return hasMessage(issue.message) ? new AppError(400, issue.message, { field }) : rule('invalid');
    default:
      return rule('invalid');
  }
}
