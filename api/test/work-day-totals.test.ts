// The charts' per-day counters (work_day_total, issue 22) are kept by triggers: after inserts,
// status and time changes, moves between days and deletes, they equal a count of the reports
// themselves, per estate, local day, status and type, with the same minutes to deal and complete.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { startTestApi, testEngines, type TestApi } from './kit';

interface Line {
  kind: string;
  housing_estate_id: number;
  day: string;
  status: number;
  type: number;
  n: number;
  deal_n: number;
  complete_n: number;
  deal: number;
  complete: number;
}

const COUNTED = sql`select kind, housing_estate_id, to_char(day, 'YYYY-MM-DD') as day, status, type, n, deal_n, complete_n,
    round(deal_minutes)::int as deal, round(complete_minutes)::int as complete
  from work_day_total where n <> 0 or deal_n <> 0 or complete_n <> 0`;

const recount = (table: string, kind: string, status: string, type: string) =>
  sql.raw(`select '${kind}' as kind, w.housing_estate_id, to_char((w.report_time at time zone he.time_zone)::date, 'YYYY-MM-DD') as day,
      w.${status} as status, ${type} as type, count(*)::int as n, count(w.deal_time)::int as deal_n,
      count(w.complete_time)::int as complete_n,
      round(coalesce(sum(extract(epoch from (w.deal_time - w.report_time)) / 60), 0))::int as deal,
      round(coalesce(sum(extract(epoch from (w.complete_time - w.report_time)) / 60), 0))::int as complete
    from ${table} w join housing_estate he on he.id = w.housing_estate_id group by 1, 2, 3, 4, 5`);

const key = (l: Line) => `${l.kind}/${l.housing_estate_id}/${l.day}/${l.status}/${l.type}`;
const sorted = (lines: Line[]) => [...lines].sort((a, b) => key(a).localeCompare(key(b)));

describe.each(testEngines())('per-day chart counters on %s', (engine) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(engine);
  });
  afterAll(async () => api?.close());

  const check = async () => {
    const counted = await queryRows<Line>(api.db, COUNTED);
    const actual = [
      ...(await queryRows<Line>(api.db, recount('complain', 'complaint', 'complain_status', '0'))),
      ...(await queryRows<Line>(api.db, recount('event_order', 'eventOrder', 'event_status', 'coalesce(w.type, 0)'))),
    ];
    expect(sorted(counted)).toEqual(sorted(actual));
  };

  it('when the demo is seeded, then the counters equal a count of the reports', async () => {
    await check();
  });

  it('when reports are dealt with, completed, moved to other days, retyped and deleted, then the counters still equal a count of them', async () => {
    await api.db.execute(
      sql`update complain set complain_status = 2, deal_time = report_time + interval '45 minutes'
          where complain_status = 1 and id % 2 = 0`,
    );
    await api.db.execute(
      sql`update event_order set event_status = 3, deal_time = report_time + interval '1 hour',
            complete_time = report_time + interval '5 hours', type = 1 + (id % 5) where id % 3 = 0`,
    );
    await api.db.execute(sql`update complain set report_time = report_time - interval '1 day' where id % 4 = 1`);
    await api.db.execute(sql`delete from event_order where id % 7 = 0`);
    await check();
  });

  it('when an estate changes its time zone, then its reports are counted by their new local days', async () => {
    const before = await queryRows<Line>(api.db, COUNTED);
    await api.db.execute(sql`update housing_estate set time_zone = 'America/New_York' where id = 1`);
    await check();
    expect(sorted(await queryRows<Line>(api.db, COUNTED))).not.toEqual(sorted(before));
  });
});
