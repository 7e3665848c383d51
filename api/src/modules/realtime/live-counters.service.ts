import { sql } from 'drizzle-orm';
import { emptySnapshot, visibleCounters, type LiveCounters } from '@pm/shared';
import type { Db } from '../../db/open-database';
import { preparedQuery, type PreparedQuery } from '../../db/prepared';
import type { ApiModule, CountersPart } from '../../http/define-route';
import { keptAnswer } from '../../http/kept-mark';
import type { AuthedContext } from '../../http/request-context';
import { pushSeqSql } from './push-journal';

type CountersRow = { push_seq: string | number | null } & Record<string, Record<string, unknown>[]>;

/** One prepared statement per shape (which modules take part, and how): a handful at most. */
const statements = new Map<string, PreparedQuery<CountersRow, Record<string, unknown>>>();

/**
 * Everything the top bar and sidebar count, read in ONE statement (one snapshot, one round trip;
 * issue 34) together with the person's push sequence: the answer counts exactly the pushes
 * numbered up to `pushSeq` (a push is numbered in the transaction of its change). Each module adds
 * its part (its `counters`: a query, read here as a subquery whose rows come back as JSON); what
 * no module adds, or a person may not list, counts as zero, and so do the counters of a topic the
 * person may not receive (`visibleCounters`, issue 30).
 */
export async function loadCounters(ctx: AuthedContext, modules: readonly ApiModule[]): Promise<LiveCounters> {
  // Kept while this process holds the person's upstream, dropped by their pushes (counters-cache.ts).
  const cache = ctx.services.realtime?.counters;
  const kept = cache?.get(ctx.caller);
  if (kept) return kept;
  const load = cache?.begin(ctx.caller) ?? null;
  let counters: LiveCounters | undefined;
  try {
    counters = await readCounters(ctx, modules);
    // Answered again as it is while kept: its envelope is written out once (kept-answer.ts).
    return load ? keptAnswer(counters) : counters;
  } finally {
    if (load) cache!.end(load, ctx.caller, counters);
  }
}

async function readCounters(ctx: AuthedContext, modules: readonly ApiModule[]): Promise<LiveCounters> {
  const { caller, tenant } = ctx;
  const parts: CountersPart[] = [];
  for (const m of modules) {
    const part = m.counters?.(tenant, caller);
    if (part) parts.push(part);
  }
  const shape = parts.map((part) => part.key).join(' ');
  let statement = statements.get(shape);
  if (!statement) {
    // Each part's placeholders are its own (`<index>.<name>`).
    statement = preparedQuery(
      `live-counters.${statements.size}`,
      (p) =>
        sql`select (${pushSeqSql(p)}) as push_seq${sql.join(
          parts.map(
            (part, i) =>
              sql`, (select coalesce(json_agg(r), '[]'::json) from (${part.sql((name) => p(`${i}.${name}`))}) r) as ${sql.raw(`part${i}`)}`,
          ),
        )}`,
    );
    statements.set(shape, statement);
  }
  const values: Record<string, unknown> = { personId: caller.personId };
  parts.forEach((part, i) => {
    for (const [name, value] of Object.entries(part.values)) values[`${i}.${name}`] = value;
  });
  const [row] = await statement(ctx.db as Db, values);
  const { version: _version, ...counters } = emptySnapshot();
  parts.forEach((part, i) => Object.assign(counters, part.read(row[`part${i}`])));
  return { ...visibleCounters(counters, caller.perms), pushSeq: Number(row.push_seq ?? 0) };
}
