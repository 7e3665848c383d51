import { IdParamsSchema } from '@pm/shared';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { validatedParams } from '../answer-route';

describe('validatedParams', () => {
  it('when the same path text comes again, then its read is remembered, frozen, without reading it again', () => {
    const schema = IdParamsSchema.clone();
    const read = vi.spyOn(schema, 'safeParse');
    const first = validatedParams(schema, { id: '42' }, 'en');
    expect(first).toEqual({ id: 42 });
    expect(Object.isFrozen(first)).toBe(true);
    expect(validatedParams(schema, { id: '42' }, 'en')).toBe(first);
    expect(read).toHaveBeenCalledTimes(1);
    expect(validatedParams(schema, { id: '43' }, 'en')).toEqual({ id: 43 });
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('when the text is not valid, then every call is a 400 naming the params (nothing remembered)', () => {
    const schema = IdParamsSchema.clone();
    for (let i = 0; i < 2; i++)
      expect(() => validatedParams(schema, { id: 'x1' }, 'en')).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('when a read holds an object, or the raw values are not strings, then it is read every time', () => {
    const nested = z.object({ id: z.string().transform((v) => ({ v })) });
    const a = validatedParams(nested, { id: '1' }, 'en');
    expect(validatedParams(nested, { id: '1' }, 'en')).not.toBe(a);
    const schema = IdParamsSchema.clone();
    const read = vi.spyOn(schema, 'safeParse');
    validatedParams(schema, { id: 7 }, 'en');
    validatedParams(schema, { id: 7 }, 'en');
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('when two schemas read the same text, then each has its own memo', () => {
    const ids = IdParamsSchema.clone();
    const names = z.object({ id: z.string() });
    expect(validatedParams(ids, { id: '5' }, 'en')).toEqual({ id: 5 });
    expect(validatedParams(names, { id: '5' }, 'en')).toEqual({ id: '5' });
  });
});
