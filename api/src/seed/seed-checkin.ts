import { and, eq, sql } from 'drizzle-orm';
import { addDays, computeDay, isWorkDay, shiftSpan, type Rule } from '../modules/checkin/checkin-rules';
import type { DbOrTx } from '../db/open-database';
import * as s from '../db/schema';
import { queryRows } from '../db/sql';

/** Where the demo estate's staff punch (the simulator punches here too: simulator/sample-content.ts). */
export const DEMO_CHECKIN_PLACE = { lat: 22.2799, lng: 114.1588, radiusMetres: 200 };

const MINUTE = 60_000;

/** Each demo department's rule (by its order): office hours, a split day, a night shift, an early day. */
const RULES: Omit<Rule, 'effectiveFrom'>[] = [
  { workDays: [1, 2, 3, 4, 5], shifts: [{ start: '09:00', end: '18:00' }] },
  {
    workDays: [1, 2, 3, 4, 5, 6],
    shifts: [
      { start: '08:00', end: '12:00' },
      { start: '13:00', end: '17:00' },
    ],
  },
  { workDays: [1, 2, 3, 4, 5, 6, 7], shifts: [{ start: '22:00', end: '06:00' }] },
  { workDays: [1, 2, 3, 4, 5, 6], shifts: [{ start: '07:00', end: '15:00' }] },
].map((r) => ({ ...r, lateGraceMinutes: 5, earlyGraceMinutes: 5, earlyInMinutes: 60, lateOutMinutes: 120 }));

/**
 * The demo's staff check-in (issue 32), in the estate of the administrator named: a rule per
 * department from the first day of last month (the office's changes mid-month: it starts at 08:30
 * from the 15th), a holiday last month and one to come, and every working day up to now punched
 * in every state (on time, late, left early, missing punch-in or out, absent, a refused punch
 * outside the radius); two make-up requests waiting and one approved. The front-desk role
 * (the `staff` account) may punch for itself, so the simulator keeps the board alive.
 */
export async function seedCheckin(tx: DbOrTx, adminUsername: string): Promise<void> {
  const [admin] = await tx
    .select({
      companyId: s.account.companyId,
      housingEstateId: s.account.housingEstateId,
      personId: s.account.personId,
    })
    .from(s.account)
    .where(eq(s.account.username, adminUsername));
  if (!admin) return;
  const t = { companyId: admin.companyId, housingEstateId: admin.housingEstateId };
  const [{ today, time_zone: zone }] = await queryRows<{ today: string; time_zone: string }>(
    tx,
    sql`select (now() at time zone time_zone)::date::text as today, time_zone from housing_estate where id = ${t.housingEstateId}`,
  );
  const lastMonth = `${addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}-01`;
  const midMonth = `${lastMonth.slice(0, 7)}-15`;

  // The punch permission for the front-desk role.
  const [punchMenu] = await tx.select({ id: s.sysMenu.id }).from(s.sysMenu).where(eq(s.sysMenu.perms, 'checkin:punch'));
  const [staffRole] = await tx
    .select({ id: s.sysRole.id })
    .from(s.sysRole)
    .where(and(eq(s.sysRole.housingEstateId, t.housingEstateId), eq(s.sysRole.roleValue, 'STAFF')));
  if (punchMenu && staffRole) await tx.insert(s.sysRoleMenu).values({ roleId: staffRole.id, menuId: punchMenu.id });

  const departments = await tx
    .select({ id: s.department.id })
    .from(s.department)
    .where(eq(s.department.housingEstateId, t.housingEstateId))
    .orderBy(s.department.sort, s.department.id);
  const place = { ...DEMO_CHECKIN_PLACE, placeName: 'Management office' };
  const versions = new Map<number, Rule[]>();
  for (const [i, d] of departments.entries()) {
    const base = { ...RULES[i % RULES.length], effectiveFrom: lastMonth };
    const rules: Rule[] = [base];
    if (i === 0) rules.push({ ...base, effectiveFrom: midMonth, shifts: [{ start: '08:30', end: '17:30' }] });
    versions.set(d.id, rules);
    await tx
      .insert(s.checkinRuleVersion)
      .values(rules.map((r) => ({ ...t, ...place, ...r, departmentId: d.id, createdBy: admin.personId })));
  }
  const holidays = new Set([`${lastMonth.slice(0, 7)}-10`, addDays(today, 20)]);
  await tx.insert(s.checkinHoliday).values([
    { ...t, day: `${lastMonth.slice(0, 7)}-10`, name: 'Estate anniversary' },
    { ...t, day: addDays(today, 20), name: 'Staff day' },
  ]);

  const staff = await tx
    .select({ personId: s.personCompany.personId, departmentId: s.personCompany.departmentId })
    .from(s.personCompany)
    .where(eq(s.personCompany.housingEstateId, t.housingEstateId));
  const now = Date.now();
  const punches: (typeof s.checkinPunch.$inferInsert)[] = [];
  const near = (k: number) => ({ lat: place.lat + ((k % 7) - 3) * 0.0002, lng: place.lng, accuracyMetres: 10 });
  let k = 0;
  for (const [pi, p] of staff.entries()) {
    const rules = versions.get(p.departmentId ?? -1);
    if (!rules) continue;
    for (let day = lastMonth; day <= today; day = addDays(day, 1)) {
      const rule = [...rules].reverse().find((r) => r.effectiveFrom <= day)!;
      if (!isWorkDay(day, rule, holidays)) continue;
      for (const [si, shift] of rule.shifts.entries()) {
        const { startAt, endAt } = shiftSpan(day, shift, zone);
        const kind = (pi * 3 + si + Number(day.slice(8))) % 11; // which state this shift shows
        const inAt = startAt - 7 * MINUTE + (kind === 1 ? 19 * MINUTE : kind === 2 ? 41 * MINUTE : 0);
        const outAt = endAt + 4 * MINUTE - (kind === 3 ? 25 * MINUTE : 0);
        const key = `seed-${p.personId}-${day}-${si}`;
        const add = (which: 'in' | 'out', at: number, inPlace = true) => {
          if (at > now) return;
          k++;
          punches.push({
            ...t,
            personId: p.personId,
            kind: which,
            at: new Date(at),
            ...(inPlace ? near(k) : { lat: place.lat + 0.004, lng: place.lng, accuracyMetres: 15 }),
            deviceId: `demo-phone-${p.personId}`,
            idempotencyKey: `${key}-${which}-${inPlace ? 'ok' : 'far'}`,
            distanceMetres: inPlace ? Math.abs((k % 7) - 3) * 22 : 445,
            inPlace,
            day: inPlace ? day : null,
            shift: inPlace ? si : null,
          });
        };
        if (kind === 6) add('in', inAt - 2 * MINUTE, false); // refused first, then punched at the gate
        if (kind !== 4 && kind !== 7) add('in', inAt); // 4: missing punch-in, 7: absent
        if (kind !== 5 && kind !== 7) add('out', outAt); // 5: missing punch-out
      }
    }
  }
  if (punches.length) await tx.insert(s.checkinPunch).values(punches);

  // Make-up requests: two waiting for review, one approved (its punch written, as a review does).
  const missing = staff
    .flatMap((p) => {
      const rules = versions.get(p.departmentId ?? -1);
      if (!rules) return [];
      const mine = punches
        .filter((x) => x.personId === p.personId && x.inPlace)
        .map((x) => ({ kind: x.kind, at: (x.at as Date).getTime() }));
      return Array.from({ length: 10 }, (_, n) => addDays(today, -1 - n)).flatMap((day) => {
        const rule = [...rules].reverse().find((r) => r.effectiveFrom <= day);
        if (!rule) return [];
        const result = computeDay({ date: day, rule, holidays, timeZone: zone, punches: mine, now });
        return result.shifts
          .filter((x) => x.state === 'missingIn' || x.state === 'missingOut')
          .map((x) => ({
            personId: p.personId,
            day,
            shift: x.shift,
            state: x.state,
            startAt: x.startAt,
            endAt: x.endAt,
          }));
      });
    })
    .filter((m, i, all) => all.findIndex((o) => o.personId === m.personId) === i)
    .slice(0, 3);
  for (const [i, m] of missing.entries()) {
    const kind = m.state === 'missingIn' ? 'in' : 'out';
    const at = new Date(kind === 'in' ? m.startAt - 3 * MINUTE : m.endAt + 2 * MINUTE);
    const approved = i === 2;
    const [row] = await tx
      .insert(s.checkinMakeup)
      .values({
        ...t,
        personId: m.personId,
        day: m.day,
        shift: m.shift,
        kind,
        at,
        reason: ['Phone battery was flat', 'Forgot to punch after the fire drill', 'The app would not load'][i],
        status: approved ? 2 : 1,
        ...(approved && { reviewerPersonId: admin.personId, reviewedAt: new Date(), reviewNote: 'Seen on the CCTV' }),
      })
      .returning({ id: s.checkinMakeup.id });
    if (approved)
      await tx.insert(s.checkinPunch).values({
        ...t,
        personId: m.personId,
        kind,
        at,
        inPlace: true,
        source: 'makeup',
        idempotencyKey: `makeup-${row.id}`,
        day: m.day,
        shift: m.shift,
      });
  }
}
