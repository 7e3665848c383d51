import { COMPLAINT, EVENT_ORDER } from '@pm/shared';
import { describe, expect, it } from 'vitest';
import { JsonText } from '../../../http/json-text';
import { createLocalBus } from '../../realtime/event-bus';
import { keepByIdFromEnv, KeptById, keptByIdBus } from '../kept-by-id';

const tenant = { companyId: 1, housingEstateId: 2 };
const answer = (n: number) => new JsonText(`{"complainId":${n}}`);

describe('KeptById', () => {
  it('when an answer is kept, then the same kind, id and tenant get it; another kind, id, estate or company miss', () => {
    const kept = new KeptById(10);
    const a = answer(1);
    kept.end(kept.begin(), KeptById.key(COMPLAINT, tenant, 1), a);
    expect(kept.get(KeptById.key(COMPLAINT, tenant, 1))).toBe(a);
    expect(kept.get(KeptById.key(EVENT_ORDER, tenant, 1))).toBeUndefined();
    expect(kept.get(KeptById.key(COMPLAINT, tenant, 2))).toBeUndefined();
    expect(kept.get(KeptById.key(COMPLAINT, { ...tenant, housingEstateId: 3 }, 1))).toBeUndefined();
    expect(kept.get(KeptById.key(COMPLAINT, { ...tenant, companyId: 9 }, 1))).toBeUndefined();
    expect(kept.hits).toBe(1);
    expect(kept.misses).toBe(4);
  });

  it('when a record is missing, then every caller asking at once gets the 404 and nothing is kept', async () => {
    const kept = new KeptById(10);
    const key = KeptById.key(COMPLAINT, tenant, 1);
    let reads = 0;
    const read = () => {
      reads++;
      return Promise.reject(new Error('not found'));
    };
    const asked = [kept.load(key, read), kept.load(key, read)];
    for (const a of asked) await expect(a).rejects.toThrow('not found');
    expect(reads).toBe(1);
    expect(kept.size()).toBe(0);
    await expect(kept.load(key, read)).rejects.toThrow('not found');
    expect(reads).toBe(2);
  });

  it('API_KEEP_BY_ID: 10,000 when unset, 0 keeps none, else a whole number', () => {
    expect(keepByIdFromEnv('0')).toBe(0);
    expect(keepByIdFromEnv(undefined)).toBe(10_000);
    expect(keepByIdFromEnv('5')).toBe(5);
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
    kept.end(kept.begin(), KeptById.key(COMPLAINT, tenant, 1), answer(1));
    await bus.publish({ kind: 'kept', origin: 'me' });
    expect(kept.size()).toBe(1);
    await bus.publish({ kind: 'kept', origin: 'other' });
    expect(kept.size()).toBe(0);
    await bus.publish({ kind: 'revoke', tokenHash: 'x' });
    expect(passed).toEqual(['revoke']);
  });
});
