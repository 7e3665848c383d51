import { localNow } from './estate-clock';

/** The rule place of the check-in tests: the demo estate's main gate. */
export const GATE = { lat: 22.3193, lng: 114.1694 };

/** A check-in rule whose one shift starts this minute and lasts eight hours, every day, from `effectiveFrom`. */
export const ruleNow = (owner: { departmentId?: number; personId?: number }, effectiveFrom = localNow().day) => ({
  ...owner,
  effectiveFrom,
  workDays: [1, 2, 3, 4, 5, 6, 7],
  shifts: [{ start: localNow().clock, end: localNow(8).clock }],
  lateGraceMinutes: 5,
  earlyGraceMinutes: 5,
  earlyInMinutes: 60,
  lateOutMinutes: 120,
  placeName: 'Main gate',
  ...GATE,
  radiusMetres: 100,
});
