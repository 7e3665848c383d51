import { sql, type SQL } from 'drizzle-orm';
import type { UpstreamMessage } from '@pm/shared';
import type { Db, DbOrTx } from '../../db/open-database';
import { preparedQuery } from '../../db/prepared';
import { queryRows } from '../../db/sql';
import type { PersonId } from './event-bus';

/** A push to some persons before it is numbered. */
export interface Push {
  personIds: PersonId[];
  message: UpstreamMessage;
}

/** A push numbered for each recipient: `seqs[i]` is the sequence number of `personIds[i]`. */
export interface StampedPush {
  personIds: string[];
  message: UpstreamMessage;
  seqs: number[];
}

export interface JournalEntry {
  seq: number;
  message: UpstreamMessage;
}

/** The number of the person's last push (0 before the first), as `db` (a transaction, say) sees it. */
export const pushSeqSql = (p: (name: 'personId') => SQL): SQL =>
  sql`select last_seq from push_cursor where person_id = ${p('personId')}`;
const pushSeqQuery = preparedQuery<{ last_seq: string | number }, { personId: number }>('push.current-seq', pushSeqSql);

export async function currentPushSeq(db: DbOrTx, personId: PersonId): Promise<number> {
  const rows = await pushSeqQuery(db, { personId: Number(personId) });
  return rows.length ? Number(rows[0].last_seq) : 0;
}

/** How long pushes stay in the journal: an upstream that resumes later than this misses the older ones. */
export const JOURNAL_RETENTION_MS = 10 * 60_000;

/**
 * The durable journal of pushes (issue 14): every push gets, per recipient, the next number of
 * that person's sequence and is stored under it, in the same transaction as the change it reports.
 * A gateway that lost its upstream (api crash, takeover by another gateway) resumes from the last
 * number it saw and is sent what it missed; counters answered with the number they are as of let it
 * tell which pushes a reload already includes. The cursor row of each recipient stays locked until
 * the transaction commits, so one person's numbers follow the commit order of the changes and have
 * no gaps: when push N exists, every push before N has committed.
 */
export class PushJournal {
  constructor(private readonly db: Db) {}

  /**
   * Numbers and stores pushes inside the caller's transaction. Call it last in the transaction:
   * it locks each recipient's cursor row until the commit.
   */
  async record(tx: DbOrTx, pushes: Push[]): Promise<StampedPush[]> {
    const recipients = pushes.map((p) => [...new Set(p.personIds.map(Number))]);
    const counts = new Map<number, number>();
    for (const ids of recipients) for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    if (counts.size === 0) return pushes.map((p) => ({ personIds: [], message: p.message, seqs: [] }));
    // Rows are locked in person order, so two transactions never wait for each other in a circle.
    const cursors = await queryRows<{ person_id: number; last_seq: string | number }>(
      tx,
      sql`insert into push_cursor (person_id, last_seq)
          select p, n from unnest(string_to_array(${[...counts.keys()].join(',')}, ',')::int[],
                                  string_to_array(${[...counts.values()].join(',')}, ',')::bigint[]) as u(p, n)
          order by 1
          on conflict (person_id) do update set last_seq = push_cursor.last_seq + excluded.last_seq
          returning person_id, last_seq`,
    );
    const next = new Map<number, number>();
    for (const c of cursors)
      next.set(Number(c.person_id), Number(c.last_seq) - (counts.get(Number(c.person_id)) ?? 0) + 1);
    const stamped = pushes.map((push, i) => {
      const seqs = recipients[i].map((id) => {
        const seq = next.get(id) as number;
        next.set(id, seq + 1);
        return seq;
      });
      return { personIds: recipients[i].map(String), message: push.message, seqs };
    });
    // The text once per push, and one narrow row per recipient naming it (issue 31: a message to
    // a group of 500 used to store 500 copies of its text).
    for (const [i, push] of stamped.entries()) {
      if (recipients[i].length === 0) continue;
      await tx.execute(
        sql`with m as (insert into push_message (message) values (${JSON.stringify(push.message)}::jsonb) returning id)
            insert into push_journal (person_id, seq, message_id)
            select p, s, m.id from m, unnest(string_to_array(${recipients[i].join(',')}, ',')::int[],
                                             string_to_array(${push.seqs.join(',')}, ',')::bigint[]) as u(p, s)`,
      );
    }
    return stamped;
  }

  /** The number of the person's last push (0 before the first). */
  currentSeq(personId: PersonId): Promise<number> {
    return currentPushSeq(this.db, personId);
  }

  /** The person's pushes numbered above `afterSeq`, oldest first, at most `limit`. */
  async after(personId: PersonId, afterSeq: number, limit: number): Promise<JournalEntry[]> {
    const rows = await queryRows<{ seq: string | number; message: UpstreamMessage }>(
      this.db,
      sql`select j.seq, m.message from push_journal j join push_message m on m.id = j.message_id
          where j.person_id = ${Number(personId)} and j.seq > ${afterSeq}
          order by j.seq limit ${limit}`,
    );
    return rows.map((r) => ({ seq: Number(r.seq), message: r.message }));
  }

  /** Deletes pushes older than the retention (their journal rows and texts); answers how many journal rows. */
  async prune(retentionMs = JOURNAL_RETENTION_MS): Promise<number> {
    const before = sql`${new Date(Date.now() - retentionMs).toISOString()}::timestamptz`;
    const rows = await queryRows<{ n: number }>(
      this.db,
      sql`with gone as (delete from push_journal where created_at < ${before} returning 1)
          select count(*)::int as n from gone`,
    );
    await this.db.execute(sql`delete from push_message where created_at < ${before}`);
    return rows[0]?.n ?? 0;
  }
}
