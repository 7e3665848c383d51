import { describe, expect, it } from 'vitest';
import { newRequestId, requestIdAt, setRequestIdCounter } from '../request-log';

describe('new request ids', () => {
  it('are the counter in 12 hex digits after the process prefix, across a byte, a long run and the wrap to zero', () => {
    for (const start of [0, 0xfd, 0x1234_5678_9aff - 3, 0xffff_ffff_fffd, 0x7fff_ffff_ff00]) {
      setRequestIdCounter(start);
      for (let i = 1; i <= 600; i++) {
        const id = newRequestId();
        expect(id).toBe(requestIdAt((start + i) % 0x1_0000_0000_0000));
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      }
    }
  });
});
