// GATEWAY_STREAM_READ_COUNT (issue 34, a trial switch): how many Redis stream entries one XREAD
// of the streams adapter takes; unset, the adapter's own default.
import { describe, expect, it } from 'vitest';
import { streamReadCount } from '../server';

describe('GATEWAY_STREAM_READ_COUNT', () => {
  it('when it is unset or empty, then the adapter keeps its default', () => {
    expect(streamReadCount({})).toEqual({});
    expect(streamReadCount({ GATEWAY_STREAM_READ_COUNT: '' })).toEqual({});
  });

  it('when it is a positive integer, then it is the read count', () => {
    expect(streamReadCount({ GATEWAY_STREAM_READ_COUNT: '10' })).toEqual({ readCount: 10 });
  });

  it('when it is not a positive integer, then the gateway does not start', () => {
    for (const raw of ['0', '-3', '2.5', 'ten'])
      expect(() => streamReadCount({ GATEWAY_STREAM_READ_COUNT: raw })).toThrow(/GATEWAY_STREAM_READ_COUNT/);
  });
});
