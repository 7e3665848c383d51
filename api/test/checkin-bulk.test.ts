// Staff check-in (issue 32): the month's computation is set-based (one read of the punches, each
// (rule, day) planned once, bulk writes in batches of days). This proves it stores exactly what
// the per-day rule engine (computeDay, one person and one day at a time) answers, for a varied
// month: on time, late, exactly on the grace, left early, missing in, missing out, absent, refused
// punches, an overnight shift, a holiday, a rule changed mid-month and a person with their own
// two-shift rule; that the counters the lists read (checkin_*_total) agree with the rows; and
// that computing again never rewrites a closed day.
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { addDays, computeDay, ruleOn, shiftSpan, type Punch, type Rule } from '../src/modules/checkin/checkin-rules';
import * as repo from '../src/modules/checkin/checkin.repository';
import { ensureDays } from '../src/modules/checkin/checkin.service';
import { startTestApi, testEngines, type TestApi } from './kit';

const MINUTE = 60_000;
const PEOPLE = 14;

interface Stored {
  state: string;
  startAt: number;
  endAt: number;
  inAt: number | null;
  outAt: number | null;
  lateMinutes: number;
  late: boolean;
  earlyMinutes: number;
  leftEarly: boolean;
  ruleId: number;
}

const ms = (v: string | number | Date | null): number | null => (v === null ? null : new Date(v).getTime());

describe.each(testEngines())('check-in month computed in bulk on %s', (engine) => {
  let api: TestApi;
  let tenant: { companyId: number; housingEstateId: number };
  let timeZone: string;
  let today: string;
  let from: string;
  let to: string;
  const people: number[] = [];

  beforeAll(async () => {
    api = await startTestApi(engine);
    const { db } = api;
    const [e] = await queryRows<{ company_id: number; id: number }>(
      db,
      sql`select company_id, id from housing_estate order by id limit 1`,
    );
    tenant = { companyId: e.company_id, housingEstateId: e.id };
    ({ timeZone, today } = await repo.estateClock(db, e.id));
    from = addDays(today, -40);
    to = addDays(today, -3);
    const mid = addDays(today, -22);
    const [{ id: dept }] = await queryRows<{ id: number }>(
      db,
      sql`insert into department (company_id, housing_estate_id, name, sort)
          values (${e.company_id}, ${e.id}, 'Bulk test', 99) returning id`,
    );
    const persons = await queryRows<{ id: number }>(
      db,
      sql`insert into person (company_id, housing_estate_id, name)
          select ${e.company_id}, ${e.id}, 'Bulk ' || g from generate_series(1, ${PEOPLE}) g returning id`,
    );
    people.push(...persons.map((p) => p.id).sort((a, b) => a - b));
    await db.execute(sql`insert into person_company (company_id, housing_estate_id, person_id, department_id)
      select ${e.company_id}, ${e.id}, id, ${dept} from person where id = any(${sql.param(people)}::int[])`);
    // The department: a day shift Monday to Saturday, then from mid-month an overnight shift every day.
    const rule = (v: Partial<Rule> & { owner: SQL }) => sql`insert into checkin_rule_version
        (company_id, housing_estate_id, department_id, person_id, effective_from, work_days, shifts, late_grace_minutes,
         early_grace_minutes, early_in_minutes, late_out_minutes, lat, lng, radius_metres)
      values (${e.company_id}, ${e.id}, ${v.owner}, ${v.effectiveFrom}, ${JSON.stringify(v.workDays)}::jsonb,
              ${JSON.stringify(v.shifts)}::jsonb, ${v.lateGraceMinutes}, ${v.earlyGraceMinutes}, 60, 120, 22.3, 114.2, 100)`;
    await db.execute(
      rule({
        owner: sql`${dept}, null`,
        effectiveFrom: addDays(from, -5),
        workDays: [1, 2, 3, 4, 5, 6],
        shifts: [{ start: '09:00', end: '18:00' }],
        lateGraceMinutes: 5,
        earlyGraceMinutes: 5,
      }),
    );
    await db.execute(
      rule({
        owner: sql`${dept}, null`,
        effectiveFrom: mid,
        workDays: [1, 2, 3, 4, 5, 6, 7],
        shifts: [{ start: '22:00', end: '06:00' }],
        lateGraceMinutes: 10,
        earlyGraceMinutes: 0,
      }),
    );
    // The first person's own rule: two shifts a day, Monday to Friday.
    await db.execute(
      rule({
        owner: sql`null, ${people[0]}`,
        effectiveFrom: addDays(from, -5),
        workDays: [1, 2, 3, 4, 5],
        shifts: [
          { start: '08:00', end: '12:00' },
          { start: '13:00', end: '17:00' },
        ],
        lateGraceMinutes: 5,
        earlyGraceMinutes: 5,
      }),
    );
    await db.execute(sql`insert into checkin_holiday (company_id, housing_estate_id, day, name)
      values (${e.company_id}, ${e.id}, ${addDays(from, 9)}, 'Bulk holiday')`);

    // Punches: each person and day one of eight cases, around the shifts of the rule in force.
    const versions = await repo.ruleVersions(db, tenant);
    const values: { personId: number; kind: 'in' | 'out'; at: number; inPlace: boolean }[] = [];
    people.forEach((personId, i) => {
      for (let d = from, n = 0; d <= to; d = addDays(d, 1), n++) {
        const own = versions.filter((v) => v.personId === personId);
        const r =
          ruleOn(own, d) ??
          ruleOn(
            versions.filter((v) => v.departmentId === dept && v.personId == null),
            d,
          )!;
        r.shifts.forEach((s, k) => {
          const { startAt, endAt } = shiftSpan(d, s, timeZone);
          const c = (i + n + k) % 8;
          const inAt = startAt + [-3, 12, 5, 0, 0, 0, 6, -30][c] * MINUTE;
          const outAt = endAt + [4, 0, 0, -20, 0, 0, 1, 30][c] * MINUTE;
          if (c !== 3 && c !== 5) values.push({ personId, kind: 'in', at: inAt, inPlace: true });
          if (c !== 4 && c !== 5) values.push({ personId, kind: 'out', at: outAt, inPlace: true });
          // A second punch-in later (the first counts) and a refused one (counts for nothing).
          if (c === 6) values.push({ personId, kind: 'in', at: inAt + 20 * MINUTE, inPlace: true });
          if (c === 7) values.push({ personId, kind: 'out', at: endAt - 60 * MINUTE, inPlace: false });
        });
      }
    });
    await db.execute(sql`insert into checkin_punch (company_id, housing_estate_id, person_id, kind, at, in_place, idempotency_key)
      select ${e.company_id}, ${e.id}, p, k, timestamptz 'epoch' + a * interval '1 millisecond', ip, 'bulk-' || o
      from unnest(${sql.param(values.map((v) => v.personId))}::int[], ${sql.param(values.map((v) => v.kind))}::text[],
                  ${sql.param(values.map((v) => v.at))}::bigint[], ${sql.param(values.map((v) => v.inPlace))}::boolean[])
           with ordinality as v(p, k, a, ip, o)`);
  });
  afterAll(async () => api?.close());

  /** What checkin_day holds for the range, by "person|day|shift". */
  async function stored(): Promise<Map<string, Stored>> {
    const rows = await queryRows<Stored & { person_id: number; day: string; shift: number; rule_id: number }>(
      api.db,
      sql`select person_id, day::text as day, shift, state, start_at as "startAt", end_at as "endAt", in_at as "inAt",
                 out_at as "outAt", late_minutes as "lateMinutes", late, early_minutes as "earlyMinutes",
                 left_early as "leftEarly", rule_id as "ruleId"
          from checkin_day where housing_estate_id = ${tenant.housingEstateId} and day between ${from} and ${to}`,
    );
    return new Map(
      rows.map((r) => [
        `${r.person_id}|${r.day}|${r.shift}`,
        {
          state: r.state,
          startAt: ms(r.startAt)!,
          endAt: ms(r.endAt)!,
          inAt: ms(r.inAt),
          outAt: ms(r.outAt),
          lateMinutes: r.lateMinutes,
          late: r.late,
          earlyMinutes: r.earlyMinutes,
          leftEarly: r.leftEarly,
          ruleId: r.ruleId,
        },
      ]),
    );
  }

  /** The per-day engine, one person and one day at a time, over every staff member of the estate. */
  async function expected(): Promise<Map<string, Stored>> {
    const staff = await repo.staffMembers(api.db, tenant);
    const versions = await repo.ruleVersions(api.db, tenant);
    const holidays = new Set((await repo.holidays(api.db, tenant)).map((h) => h.day));
    const punches = await queryRows<{ person_id: number; kind: 'in' | 'out'; at: string | Date }>(
      api.db,
      sql`select person_id, kind, at from checkin_punch where housing_estate_id = ${tenant.housingEstateId} and in_place`,
    );
    const now = Date.now();
    const out = new Map<string, Stored>();
    for (const person of staff) {
      const mine: Punch[] = punches
        .filter((p) => p.person_id === person.personId)
        .map((p) => ({ kind: p.kind, at: new Date(p.at).getTime() }));
      for (let d = from; d <= to; d = addDays(d, 1)) {
        const rule =
          ruleOn(
            versions.filter((v) => v.personId === person.personId),
            d,
          ) ??
          (person.departmentId == null
            ? null
            : ruleOn(
                versions.filter((v) => v.personId == null && v.departmentId === person.departmentId),
                d,
              ));
        if (!rule) continue;
        const day = computeDay({ date: d, rule, holidays, timeZone, punches: mine, now });
        for (const s of day.shifts)
          out.set(`${person.personId}|${d}|${s.shift}`, {
            state: s.state,
            startAt: s.startAt,
            endAt: s.endAt,
            inAt: s.inAt,
            outAt: s.outAt,
            lateMinutes: s.lateMinutes,
            late: s.late,
            earlyMinutes: s.earlyMinutes,
            leftEarly: s.leftEarly,
            ruleId: rule.id,
          });
      }
    }
    return out;
  }

  /** How many (estate, day) punch counts checkin_punch_total gets wrong. */
  async function punchTotalsOff(): Promise<number> {
    const [{ n }] = await queryRows<{ n: number }>(
      api.db,
      sql`select count(*)::int as n from (
            select p.housing_estate_id, (p.at at time zone he.time_zone)::date as day, count(*)::int as n
            from checkin_punch p join housing_estate he on he.id = p.housing_estate_id group by 1, 2
            except select housing_estate_id, day, sum(punches)::int from checkin_punch_total
            group by 1, 2 having sum(punches) > 0) d`,
    );
    return n;
  }

  it('when a month is computed in bulk, then every shift is what the per-day engine answers, and the counters agree with the rows', async () => {
    await ensureDays(api.db, tenant, from, to);
    const got = await stored();
    const want = await expected();
    expect(got.size).toBe(want.size);
    expect(Object.fromEntries(got)).toEqual(Object.fromEntries(want));
    // The month really is varied: every state and problem the engine knows occurs among our people.
    const ours = [...got].filter(([k]) => people.includes(Number(k.split('|')[0]))).map(([, v]) => v);
    expect(new Set(ours.map((s) => s.state))).toEqual(new Set(['done', 'missingIn', 'missingOut', 'absent']));
    expect(ours.some((s) => s.late)).toBe(true);
    expect(ours.some((s) => !s.late && s.lateMinutes === 5)).toBe(true);
    expect(ours.some((s) => s.leftEarly)).toBe(true);
    expect(ours.some((s) => s.endAt - s.startAt === 8 * 60 * MINUTE)).toBe(true); // the overnight shift
    expect(new Set(ours.map((s) => s.ruleId)).size).toBe(3);
    expect([...got.keys()].some((k) => k.includes(`|${addDays(from, 9)}|`))).toBe(false); // the holiday

    const diff = await queryRows<{ n: number }>(
      api.db,
      sql`select count(*)::int as n from (
            (select housing_estate_id, day, coalesce(department_id, 0) as department_id, count(*)::int as shifts,
                    (count(*) filter (where late))::int as late,
                    (count(*) filter (where late or left_early or state in ('missingIn', 'missingOut', 'absent')))::int as problems
             from checkin_day group by 1, 2, 3
             except select housing_estate_id, day, department_id, shifts, late, problems from checkin_day_total)
            union all
            (select housing_estate_id, (day - extract(day from day)::int + 1), person_id, count(*)::int,
                    coalesce(sum(late_minutes) filter (where late), 0)::int, (count(*) filter (where state = 'absent'))::int
             from checkin_day group by 1, 2, 3
             except select housing_estate_id, month, person_id, sum(shifts)::int, sum(late_minutes)::int, sum(absent)::int
             from checkin_month_total group by 1, 2, 3 having sum(shifts) > 0)
            union all
            (select p.housing_estate_id, (p.at at time zone he.time_zone)::date, count(*)::int, 0, 0, 0
             from checkin_punch p join housing_estate he on he.id = p.housing_estate_id group by 1, 2
             except select housing_estate_id, day, sum(punches)::int, 0, 0, 0 from checkin_punch_total group by 1, 2)) d`,
    );
    expect(diff[0].n).toBe(0);
    // A punch removed, and a change of the estate's zone, count the punches' days again.
    await api.db.execute(sql`insert into checkin_punch (company_id, housing_estate_id, person_id, kind, at, in_place)
      values (${tenant.companyId}, ${tenant.housingEstateId}, ${people[1]}, 'in', now(), false)`);
    expect(await punchTotalsOff()).toBe(0);
    await api.db.execute(sql`delete from checkin_punch where id = (select max(id) from checkin_punch)`);
    expect(await punchTotalsOff()).toBe(0);
    await api.db.execute(
      sql`update housing_estate set time_zone = 'America/New_York' where id = ${tenant.housingEstateId}`,
    );
    expect(await punchTotalsOff()).toBe(0);
    await api.db.execute(sql`update housing_estate set time_zone = ${timeZone} where id = ${tenant.housingEstateId}`);
    expect(await punchTotalsOff()).toBe(0);
    // And the lists' totals read from the counters are the counts of the rows.
    const days = await repo.pageDays(api.db, tenant, {
      startDate: from,
      endDate: to,
      problem: 'late',
      page: 1,
      limit: 5,
    });
    const [direct] = await queryRows<{ late: number; people: number }>(
      api.db,
      sql`select (count(*) filter (where late and day between ${from} and ${to}))::int as late,
                 count(distinct person_id) filter (where to_char(day, 'YYYY-MM') = ${to.slice(0, 7)})::int as people
          from checkin_day where housing_estate_id = ${tenant.housingEstateId}`,
    );
    expect(days.total).toBe(direct.late);
    const month = await repo.pageMonth(api.db, tenant, { month: to.slice(0, 7), page: 1, limit: 10 });
    expect(month.total).toBe(direct.people);
  });

  it('when the month is computed again after a new punch on a closed day, then that day is not rewritten', async () => {
    await ensureDays(api.db, tenant, from, to);
    const before = await stored();
    // An absent shift of one of our people, on a closed day: a punch-in would make it missingOut.
    const [key] = [...before].find(([k, s]) => people.includes(Number(k.split('|')[0])) && s.state === 'absent')!;
    const [personId, day] = key.split('|');
    const s = before.get(key)!;
    await api.db.execute(sql`insert into checkin_punch (company_id, housing_estate_id, person_id, kind, at, in_place)
      values (${tenant.companyId}, ${tenant.housingEstateId}, ${Number(personId)}, 'in',
              ${new Date(s.startAt + MINUTE).toISOString()}, true)`);
    await ensureDays(api.db, tenant, from, to);
    expect(Object.fromEntries(await stored())).toEqual(Object.fromEntries(before));
    // The punch does count once the day is open again: computed, it is the per-day engine's answer.
    await api.db.execute(
      sql`delete from checkin_closed_day where housing_estate_id = ${tenant.housingEstateId} and day = ${day}`,
    );
    await ensureDays(api.db, tenant, from, to);
    const after = await stored();
    expect(after.get(key)?.state).toBe('missingOut');
    expect(Object.fromEntries(after)).toEqual(Object.fromEntries(await expected()));
  });

  it('when days are recomputed unchanged, or a shift changes without changing a count, then no counter row is written; a count that changes is written once', async () => {
    const { db } = api;
    await ensureDays(db, tenant, from, to);
    // Where each counter row of the estate is stored: a row written again (even to the same values)
    // is a new version elsewhere (another ctid) and leaves a dead one behind.
    const versions = async () =>
      new Map(
        (
          await queryRows<{ k: string; v: string }>(
            db,
            sql`select 'm|' || month || '|' || person_id || '|' || department_id as k, ctid::text || xmin::text as v
                from checkin_month_total where housing_estate_id = ${tenant.housingEstateId}
                union all
                select 'd|' || day || '|' || department_id, ctid::text || xmin::text
                from checkin_day_total where housing_estate_id = ${tenant.housingEstateId}`,
          )
        ).map((r) => [r.k, r.v]),
      );
    const countersOff = async () => {
      const [{ n }] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from (
              (select (day - extract(day from day)::int + 1) as month, person_id, coalesce(department_id, 0) as dept,
                      count(*)::int as shifts, (count(*) filter (where late))::int as late,
                      coalesce(sum(late_minutes) filter (where late), 0)::int as late_minutes,
                      (count(*) filter (where left_early))::int as left_early,
                      (count(*) filter (where state = 'missingIn'))::int as missing_in,
                      (count(*) filter (where state = 'missingOut'))::int as missing_out,
                      (count(*) filter (where state = 'absent'))::int as absent
               from checkin_day where housing_estate_id = ${tenant.housingEstateId} group by 1, 2, 3
               except select month, person_id, department_id, shifts, late, late_minutes, left_early, missing_in,
                             missing_out, absent
               from checkin_month_total where housing_estate_id = ${tenant.housingEstateId} and shifts > 0)
              union all
              (select day, 0, coalesce(department_id, 0), count(*)::int, (count(*) filter (where late))::int, 0,
                      (count(*) filter (where left_early))::int, (count(*) filter (where state = 'missingIn'))::int,
                      (count(*) filter (where state = 'missingOut'))::int, (count(*) filter (where state = 'absent'))::int
               from checkin_day where housing_estate_id = ${tenant.housingEstateId} group by 1, 3
               except select day, 0, department_id, shifts, late, 0, left_early, missing_in, missing_out, absent
               from checkin_day_total where housing_estate_id = ${tenant.housingEstateId} and shifts > 0)) d`,
      );
      return n;
    };
    const before = await versions();
    expect(before.size).toBeGreaterThan(0);

    // Every day opened again and computed again: the same shifts, nothing written.
    await db.execute(sql`delete from checkin_closed_day where housing_estate_id = ${tenant.housingEstateId}`);
    await ensureDays(db, tenant, from, to);
    expect(Object.fromEntries(await versions())).toEqual(Object.fromEntries(before));

    // Shifts that change without changing a count (a done shift back to on duty, as an open day
    // is between punches; an in time moved within the grace): the counters stay where they were.
    const ours = sql.param(people);
    const changed = await queryRows<{ n: number }>(
      db,
      sql`update checkin_day set state = 'onDuty', out_at = null, in_at = in_at + interval '1 minute'
          where person_id = any(${ours}::int[]) and state = 'done' and not late and not left_early returning 1 as n`,
    );
    expect(changed.length).toBeGreaterThan(1);
    expect(Object.fromEntries(await versions())).toEqual(Object.fromEntries(before));
    expect(await countersOff()).toBe(0);

    // A count that changes (an absent shift made up to missing its punch-out): its month's and its
    // day's counter rows written, once each, and right; no other row touched.
    const [absent] = await queryRows<{ personId: number; day: string; shift: number }>(
      db,
      sql`select person_id as "personId", day::text as day, shift from checkin_day
          where person_id = any(${ours}::int[]) and state = 'absent' order by day, person_id limit 1`,
    );
    await db.execute(sql`update checkin_day set state = 'missingOut', in_at = start_at
      where person_id = ${absent.personId} and day = ${absent.day} and shift = ${absent.shift}`);
    const after = await versions();
    const rewritten = [...after].filter(([k, v]) => before.get(k) !== v).map(([k]) => k.split('|')[0]);
    expect(rewritten.sort()).toEqual(['d', 'm']);
    expect(await countersOff()).toBe(0);
  });
});
