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

  // The keeping itself (a read overtaken by a drop, one read for concurrent callers, LRU, off):
  // api/src/kept/__tests__/kept-answers.test.ts.
  it('API_KEEP_LISTS: 2,000 when unset, 0 keeps none, else a whole number', () => {
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
