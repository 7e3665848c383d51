// DATABASE_PIPELINE (db/pipelined-reads.ts): how many pipelined connections carry the prepared reads.
import { describe, expect, it } from 'vitest';
import { pipelineFromEnv } from '../pipelined-reads';

describe('pipelineFromEnv', () => {
  it('when DATABASE_PIPELINE is not a number of connections, then it says so', () => {
    expect(pipelineFromEnv(undefined)).toBe(2);
    expect(pipelineFromEnv('0')).toBe(0);
    expect(pipelineFromEnv('4')).toBe(4);
    expect(() => pipelineFromEnv('two')).toThrow(
      'DATABASE_PIPELINE must be a number of connections from 0 to 64, not "two"',
    );
    expect(() => pipelineFromEnv('-1')).toThrow(/DATABASE_PIPELINE/);
  });
});
