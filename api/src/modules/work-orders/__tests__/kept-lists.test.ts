import { COMPLAINT, EVENT_ORDER } from '@pm/shared';
import { describe, expect, it } from 'vitest';
import { keepListsFromEnv, KeptLists } from '../kept-lists';

const tenant = { companyId: 1, housingEstateId: 2 };
const first = { filter: {}, page: 1, limit: 10 };
const page = (n: number) => ({ list: [], total: n, page: 1, limit: 10, totalPage: 0 });

describe('KeptLists', () => {
  it('when a page is kept, then only the same kind, company, estate and query get it', () => {
    const kept = new KeptLists(10);
    const a = page(1);
    const key = KeptLists.key(COMPLAINT, tenant, first);
    kept.end(kept.begin(), key, a);
    expect(kept.get(key)).toBe(a);
    for (const other of [
      KeptLists.key(EVENT_ORDER, tenant, first),
      KeptLists.key(COMPLAINT, { ...tenant, housingEstateId: 3 }, first),
      KeptLists.key(COMPLAINT, { ...tenant, companyId: 9 }, first),
      KeptLists.key(COMPLAINT, tenant, { ...first, page: 2 }),
      KeptLists.key(COMPLAINT, tenant, { ...first, limit: 20 }),
      KeptLists.key(COMPLAINT, tenant, { ...first, filter: { status: 1 } }),
      KeptLists.key(COMPLAINT, tenant, { ...first, filter: { houseType: 1 } }),
      KeptLists.key(COMPLAINT, tenant, { ...first, filter: { keyword: 'a' } }),
      KeptLists.key(COMPLAINT, tenant, { ...first, filter: { startTime: '2026-11-01' } }),
      KeptLists.key(COMPLAINT, tenant, { ...first, filter: { endTime: '2026-11-01' } }),
      KeptLists.key(EVENT_ORDER, tenant, { ...first, filter: { type: 2 } }),
    ])
      expect(kept.get(other)).toBeUndefined();
    expect(kept.hits).toBe(1);
  });

  it('when a filter is left out, empty or 0, then it is the same page; a type on complaints (which have none) too', () => {
    const key = KeptLists.key(COMPLAINT, tenant, first);
    expect(KeptLists.key(COMPLAINT, tenant, { ...first, filter: { status: 0, keyword: '', startTime: '' } })).toBe(key);
    expect(KeptLists.key(COMPLAINT, tenant, { ...first, filter: { type: 3 } })).toBe(key);
  });

  it('when a write drops the pages while a read is on its way, then that read is not kept', () => {
    const kept = new KeptLists(10);
    const key = KeptLists.key(COMPLAINT, tenant, first);
    const load = kept.begin();
    kept.dropAll();
    kept.end(load, key, page(1));
    expect(kept.get(key)).toBeUndefined();
    expect(kept.size()).toBe(0);
  });

  it('when several ask for a page at once, then it is read once; one asking after a drop reads it again', async () => {
    const kept = new KeptLists(10);
    const key = KeptLists.key(COMPLAINT, tenant, first);
    let reads = 0;
    const finish: (() => void)[] = [];
    const read = () => {
      const n = ++reads;
      return new Promise<ReturnType<typeof page>>((resolve) => finish.push(() => resolve(page(n))));
    };
    const a = kept.load(key, read);
    const b = kept.load(key, read);
    expect(reads).toBe(1);
    // A write commits while the first read is on its way: the next caller does not join it.
    kept.dropAll();
    const c = kept.load(key, read);
    expect(reads).toBe(2);
    finish.forEach((f) => f());
    expect((await a).total).toBe(1);
    expect(await b).toBe(await a);
    expect((await c).total).toBe(2);
    // Only the read begun after the drop is kept.
    expect((await kept.load(key, read)).total).toBe(2);
    expect(reads).toBe(2);
  });

  it('when more than max are kept, then the least recently used goes; max 0 keeps none', () => {
    const kept = new KeptLists(2);
    const keyOf = (n: number) => KeptLists.key(COMPLAINT, tenant, { ...first, page: n });
    for (const n of [1, 2]) kept.end(kept.begin(), keyOf(n), page(n));
    expect(kept.get(keyOf(1))).toBeDefined();
    kept.end(kept.begin(), keyOf(3), page(3));
    expect(kept.size()).toBe(2);
    expect(kept.get(keyOf(2))).toBeUndefined();
    expect(kept.get(keyOf(1))).toBeDefined();
    const off = new KeptLists(0);
    off.end(off.begin(), keyOf(1), page(1));
    expect(off.get(keyOf(1))).toBeUndefined();
    expect(keepListsFromEnv('0')).toBe(0);
    expect(keepListsFromEnv(undefined)).toBe(2_000);
    expect(() => keepListsFromEnv('x')).toThrow(/API_KEEP_LISTS/);
  });

  it('when a table a page reads is written, then it concerns the kept pages; another table does not', () => {
    for (const t of ['complain', 'event_order', 'work_total', 'person', 'unit', 'floor', 'block', 'car_space', 'shop'])
      expect(KeptLists.concerns(new Set([t]))).toBe(true);
    expect(KeptLists.concerns(new Set(['housing_estate']))).toBe(true);
    expect(KeptLists.concerns(new Set(['push_journal', 'oauth_token', 'complain_reply']))).toBe(false);
  });
});
