import { COMPLAINT, EVENT_ORDER, type WorkKind } from '@pm/shared';
import type { TenantScope } from '../../http/caller';
import type { JsonText } from '../../http/json-text';
import { KeptAnswers, keptMaxFromEnv, readsAny } from '../../kept/kept-answers';
import type { EventBus } from '../realtime/event-bus';

/** The tables a record's persons (reporter, who dealt, who completed) and its house are read from. */
export const PERSON_AND_HOUSE_READS = ['person', 'unit', 'floor', 'block', 'car_space', 'shop'] as const;

/**
 * The tables a complaint's or work order's answer by id reads (work-orders.repository.ts
 * `findWork`): the record, its replies (the count), the persons it names (reporter, who dealt,
 * who completed: names and avatars), and its house (unit, floor, block, car space, shop).
 */
export const BY_ID_READS: ReadonlySet<string> = new Set([
  ...[COMPLAINT, EVENT_ORDER].flatMap((k) => [k.sql.table, k.sql.replyTable]),
  ...PERSON_AND_HOUSE_READS,
]);

/**
 * A complaint's or work order's answer by id (`POST /complain/query/id/{id}`,
 * `/eventOrder/query/id/{id}`), kept in the api process (issue 34): the console reads a record
 * each time its dialog opens, and each read cost a statement of seven joins.
 *
 * Key: kind, id, company and estate. The answer reads nothing of the caller beyond their tenant
 * (not their role or permissions, which the route checks on every call before asking here).
 *
 * Never stale, coarsely: ANY committed write to a table the answer reads (BY_ID_READS) drops
 * EVERY kept answer, of every estate — no tracking of which records a write touched (a person's
 * new name shows in every record naming them; a block renamed, in each of its units'). In this
 * process at the write's commit, before the writer's code after the commit runs (db/write-watch.ts,
 * at the driver, so no module can forget it); in every other api process through the realtime bus
 * (`kind: 'kept'`, NOTIFY on PostgreSQL), published before the write's pushes, so a process hands
 * a record's push to its upstreams only after dropping the answers it kept of it. The keeping
 * (bounded, 30 s at most, a read overtaken by a drop not kept, one read for concurrent callers,
 * hits and misses) is KeptAnswers'.
 */
export class KeptById extends KeptAnswers<JsonText> {
  /** The answer's key: kind, id and the caller's tenant. */
  static key(k: WorkKind, tenant: TenantScope, id: number): string {
    return `${k.kind}:${id}:${tenant.companyId}:${tenant.housingEstateId}`;
  }

  /** Whether a write to these tables changes what an answer by id may show. */
  static concerns(tables: ReadonlySet<string>): boolean {
    return readsAny(BY_ID_READS, tables);
  }
}

/** API_KEEP_BY_ID: how many answers by id are kept (default 10,000; 0 = none). */
export function keepByIdFromEnv(value: string | undefined): number {
  return keptMaxFromEnv('API_KEEP_BY_ID', value, 10_000);
}

/**
 * The realtime bus, with another process's 'kept' envelope dropping this process's kept answers
 * (its own was dropped at its commit); the envelope concerns only the kept answers and stops here.
 */
export function keptByIdBus(bus: EventBus, kept: Pick<KeptById, 'dropAll'>, origin: string): EventBus {
  return {
    publish: (envelope) => bus.publish(envelope),
    onEnvelope: (handler) =>
      bus.onEnvelope((envelope) => {
        if (envelope.kind !== 'kept') return handler(envelope);
        if (envelope.origin !== origin) kept.dropAll();
      }),
    close: () => bus.close(),
  };
}
