import { describe, expect, it } from 'vitest';
import { mayOverlap } from '../fast-path';

describe('mayOverlap (which earlier routes could take a fast route’s paths)', () => {
  it('when a wildcard route lies under another prefix, then it takes none of the paths', () => {
    expect(mayOverlap('/upload/files/*key', '/realtime/counters')).toBe(false);
    expect(mayOverlap('/upload/files/*key', '/upload/files')).toBe(false);
  });

  it('when a wildcard or a parameter could take the path, then they overlap, in any letter case', () => {
    expect(mayOverlap('/upload/files/*key', '/upload/files/a/b')).toBe(true);
    expect(mayOverlap('/Upload/*key', '/upload/files/:id')).toBe(true);
    expect(mayOverlap('/complain/query/:what', '/complain/query/list')).toBe(true);
    expect(mayOverlap('/complain/query/id/:id', '/COMPLAIN/query/id/:id')).toBe(true);
  });

  it('when a literal segment differs or the lengths differ, then they do not overlap', () => {
    expect(mayOverlap('/complain/query/:what', '/complain/query/id/:id')).toBe(false);
    expect(mayOverlap('/eventOrder/query/list', '/complain/query/list')).toBe(false);
  });
});
