import { describe, expect, it } from 'vitest';
import type { LiveCounters } from '@pm/shared';
import type { Caller } from '../../../http/caller';
import { CountersCache } from '../counters-cache';

const caller = (over: Partial<Caller> = {}): Caller => ({
  tokenId: 1,
  accountId: 1,
  personId: 7,
  companyId: 1,
  housingEstateId: 1,
  companyType: 1,
  roleId: 1,
  roleValue: 'STAFF',
  kind: 'staff',
  perms: new Set(['complain:list']),
  ...over,
});
const answer = (pushSeq: number) => ({ pushSeq }) as unknown as LiveCounters;

describe('CountersCache', () => {
  it('when a push for the person came while their counters were being read, then that answer is not kept', () => {
    const cache = new CountersCache(() => true);
    const who = caller();
    const load = cache.begin(who)!;
    cache.drop(7);
    cache.end(load, who, answer(1));
    expect(cache.get(who)).toBeUndefined();
    const again = cache.begin(who)!;
    cache.end(again, who, answer(2));
    expect(cache.get(who)).toEqual(answer(2));
  });

  it('when the process holds no upstream of the person, then nothing is kept or answered', () => {
    let holds = false;
    const cache = new CountersCache(() => holds);
    const who = caller();
    expect(cache.begin(who)).toBeNull();
    holds = true;
    cache.end(cache.begin(who)!, who, answer(3));
    expect(cache.get(who)).toEqual(answer(3));
    holds = false;
    expect(cache.get(who)).toBeUndefined();
  });

  it('when the same person calls with other permissions or another estate, then the answer kept for the first is not theirs', () => {
    const cache = new CountersCache(() => true);
    const who = caller();
    cache.end(cache.begin(who)!, who, answer(4));
    expect(cache.get(caller({ perms: new Set(['complain:list']) }))).toEqual(answer(4));
    expect(cache.get(caller({ perms: new Set() }))).toBeUndefined();
    expect(cache.get(caller({ housingEstateId: 2 }))).toBeUndefined();
    expect(cache.get(caller({ kind: 'resident' }))).toBeUndefined();
  });

  it('when another person gets a push, then this person keeps their answer', () => {
    const cache = new CountersCache(() => true);
    const who = caller();
    cache.end(cache.begin(who)!, who, answer(5));
    cache.drop(8);
    expect(cache.get(who)).toEqual(answer(5));
    cache.drop('7');
    expect(cache.get(who)).toBeUndefined();
  });
});
