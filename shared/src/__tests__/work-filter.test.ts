import { describe, expect, it } from 'vitest';
import { COMPLAINT, EVENT_ORDER } from '../work-kinds';
import { workFilterInEffect } from '../work-filter';

describe('workFilterInEffect', () => {
  it('when a filter is left out, empty, blank or 0, then it is left out; the keyword trimmed', () => {
    expect(JSON.stringify(workFilterInEffect(EVENT_ORDER, {}))).toBe('{}');
    expect(
      JSON.stringify(
        workFilterInEffect(EVENT_ORDER, {
          status: 0,
          type: 0,
          houseType: 0,
          keyword: '  ',
          startTime: '',
          endTime: '',
        }),
      ),
    ).toBe('{}');
    expect(workFilterInEffect(EVENT_ORDER, { keyword: ' pipe ' }).keyword).toBe('pipe');
  });

  it('when every filter is given, then each is kept, in one order whatever the order given', () => {
    const all = { endTime: '2026-11-30', startTime: '2026-11-01', keyword: 'a', houseType: 2, type: 3, status: 1 };
    expect(JSON.stringify(workFilterInEffect(EVENT_ORDER, all))).toBe(
      '{"status":1,"type":3,"houseType":2,"keyword":"a","startTime":"2026-11-01","endTime":"2026-11-30"}',
    );
  });

  it('when a kind has no type (complaints), then a type filter is left out', () => {
    expect(workFilterInEffect(COMPLAINT, { type: 3, status: 2 })).toEqual({ status: 2 });
    expect(workFilterInEffect(COMPLAINT, { type: 3 }).type).toBeUndefined();
  });
});
