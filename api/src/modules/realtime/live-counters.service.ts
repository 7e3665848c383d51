import { emptySnapshot, visibleCounters, type LiveCounters } from '@pm/shared';
import type { Db } from '../../db/open-database';
import type { ApiModule } from '../../http/define-route';
import type { AuthedContext } from '../../http/request-context';
import { currentPushSeq } from './push-journal';

/**
 * Everything the top bar and sidebar count, read in ONE repeatable-read snapshot together with
 * the person's push sequence: the answer counts exactly the pushes numbered up to `pushSeq`
 * (a push is numbered in the transaction of its change). Each module adds its part (its
 * `counters`); what no module adds, or a person may not list, counts as zero, and so do the
 * counters of a topic the person may not receive (`visibleCounters`, issue 30).
 */
export async function loadCounters(ctx: AuthedContext, modules: readonly ApiModule[]): Promise<LiveCounters> {
  const { caller, tenant } = ctx;
  return (ctx.db as Db).transaction(
    async (tx) => {
      const pushSeq = await currentPushSeq(tx, caller.personId);
      const { version: _version, ...counters } = emptySnapshot();
      // One after the other: a transaction runs one statement at a time.
      for (const m of modules) if (m.counters) Object.assign(counters, await m.counters(tx, tenant, caller));
      return { ...visibleCounters(counters, caller.perms), pushSeq };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
