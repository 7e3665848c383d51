import { COMPLAINT, EVENT_ORDER } from '@pm/shared';
import { describe, expect, it } from 'vitest';
import { JsonText } from '../../../http/json-text';
import { createLocalBus } from '../../realtime/event-bus';
import { keepByIdFromEnv, KeptById, keptByIdBus } from '../kept-by-id';

const tenant = { companyId: 1, housingEstateId: 2 };
const answer = (n: number) => new JsonText(`{"complainId":${n}}`);

describe('KeptById', () => {
  it('when an answer is kept, then the same kind, id and tenant get it; another kind, estate or company miss', () => {
    const kept = new KeptById(10);
    const a = answer(1);
    kept.end(kept.begin(), COMPLAINT, tenant, 1, a);
    expect(kept.get(COMPLAINT, tenant, 1)).toBe(a);
    expect(kept.get(EVENT_ORDER, tenant, 1)).toBeUndefined();
    expect(kept.get(COMPLAINT, { ...tenant, housingEstateId: 3 }, 1)).toBeUndefined();
    expect(kept.get(COMPLAINT, { ...tenant, companyId: 9 }, 1)).toBeUndefined();
    expect(kept.hits).toBe(1);
    expect(kept.misses).toBe(3);
  });

  it('when a write drops the answers while a read is on its way, then that read is not kept', () => {
    const kept = new KeptById(10);
    const load = kept.begin();
    kept.dropAll();
    kept.end(load, COMPLAINT, tenant, 1, answer(1));
    expect(kept.get(COMPLAINT, tenant, 1)).toBeUndefined();
    expect(kept.size()).toBe(0);
  });

  it('when more than max are kept, then the least recently used goes; max 0 keeps none', () => {
    const kept = new KeptById(2);
    for (const id of [1, 2]) kept.end(kept.begin(), COMPLAINT, tenant, id, answer(id));
    expect(kept.get(COMPLAINT, tenant, 1)).toBeDefined();
    kept.end(kept.begin(), COMPLAINT, tenant, 3, answer(3));
    expect(kept.size()).toBe(2);
    expect(kept.get(COMPLAINT, tenant, 2)).toBeUndefined();
    expect(kept.get(COMPLAINT, tenant, 1)).toBeDefined();
    const off = new KeptById(0);
    off.end(off.begin(), COMPLAINT, tenant, 1, answer(1));
    expect(off.get(COMPLAINT, tenant, 1)).toBeUndefined();
    expect(keepByIdFromEnv('0')).toBe(0);
    expect(keepByIdFromEnv(undefined)).toBe(10_000);
    expect(() => keepByIdFromEnv('-1')).toThrow(/API_KEEP_BY_ID/);
  });

  it('when a table the answer reads is written, then it concerns the kept answers; another table does not', () => {
    for (const t of ['complain', 'event_reply', 'person', 'unit', 'floor', 'block', 'car_space', 'shop'])
      expect(KeptById.concerns(new Set([t]))).toBe(true);
    expect(KeptById.concerns(new Set(['push_journal', 'oauth_token']))).toBe(false);
  });

  it("when another process's drop comes through the bus, then all are dropped; its own is skipped, other envelopes pass", async () => {
    const kept = new KeptById(10);
    const bus = keptByIdBus(createLocalBus(), kept, 'me');
    const passed: string[] = [];
    bus.onEnvelope((e) => passed.push(e.kind));
    kept.end(kept.begin(), COMPLAINT, tenant, 1, answer(1));
    await bus.publish({ kind: 'kept', origin: 'me' });
    expect(kept.size()).toBe(1);
    await bus.publish({ kind: 'kept', origin: 'other' });
    expect(kept.size()).toBe(0);
    await bus.publish({ kind: 'revoke', tokenHash: 'x' });
    expect(passed).toEqual(['revoke']);
  });
});
