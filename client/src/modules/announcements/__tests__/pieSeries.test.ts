import { describe, expect, it } from 'vitest';
import { pieName, roundedPercentages } from '../utils/pieSeries';

describe('pie legend and percentages (SPEC §9)', () => {
  it('when a name is longer than 9 characters, then it is cut at 9 with an ellipsis; shorter names stay', () => {
    expect(pieName('Read, not voted')).toBe('Read, not…');
    expect(pieName('Under the trees')).toBe('Under the…');
    expect(pieName('Gym')).toBe('Gym');
    expect(pieName('已读未投票已读未投票已读')).toBe('已读未投票已读未投…');
  });

  it('when values are split, then the rounded percentages always sum to 100', () => {
    expect(roundedPercentages([1, 1, 1])).toEqual([34, 33, 33]);
    expect(roundedPercentages([2, 1])).toEqual([67, 33]);
    expect(roundedPercentages([0, 5, 0])).toEqual([0, 100, 0]);
    expect(roundedPercentages([0, 0])).toEqual([0, 0]);
    for (const values of [
      [3, 3, 3, 1],
      [7, 11, 13, 17, 19],
      [1, 2, 3, 4, 5, 6, 7],
    ])
      expect(roundedPercentages(values).reduce((a, b) => a + b, 0)).toBe(100);
  });
});
