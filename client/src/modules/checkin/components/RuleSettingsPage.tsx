import { useEffect, useState } from 'react';
import { Button, Form, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import {
  deleteCheckinHoliday,
  deleteCheckinRule,
  fetchCheckinHolidays,
  fetchCheckinRules,
  fetchCheckinStaff,
  saveCheckinHoliday,
  saveCheckinRule,
  type CheckinRuleRow,
} from '../../api';
import { SelectField } from '../../ui/components/SelectField';
import { showToast } from '../../ui/states/toasts';
import '../checkin.css';

type CheckinStaff = Awaited<ReturnType<typeof fetchCheckinStaff>>;

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];
/** The api takes one to four shifts a day (shared/src/api/checkin.ts). */
const MAX_SHIFTS = 4;

/** The new version's form, as typed. */
const EMPTY = {
  owner: 'department' as 'department' | 'person',
  departmentId: '',
  personId: '',
  effectiveFrom: '',
  workDays: [1, 2, 3, 4, 5],
  shifts: [{ start: '09:00', end: '18:00' }],
  lateGraceMinutes: '5',
  earlyGraceMinutes: '5',
  earlyInMinutes: '60',
  lateOutMinutes: '120',
  lat: '',
  lng: '',
  radiusMetres: '200',
  placeName: '',
};
type RuleForm = typeof EMPTY;

/** A version's values in the form, to start a new version from (its day left for the person to choose). */
function formOf(r: CheckinRuleRow): RuleForm {
  return {
    owner: r.personId ? 'person' : 'department',
    departmentId: r.departmentId ? String(r.departmentId) : '',
    personId: r.personId ? String(r.personId) : '',
    effectiveFrom: '',
    workDays: [...r.workDays],
    shifts: r.shifts.map((x) => ({ ...x })),
    lateGraceMinutes: String(r.lateGraceMinutes),
    earlyGraceMinutes: String(r.earlyGraceMinutes),
    earlyInMinutes: String(r.earlyInMinutes),
    lateOutMinutes: String(r.lateOutMinutes),
    lat: String(r.lat),
    lng: String(r.lng),
    radiusMetres: String(r.radiusMetres),
    placeName: r.placeName ?? '',
  };
}

/**
 * /check-in/check-in-rule-settings (issue 32): every version of each department's rule and of
 * the people who have their own (a person's own rule wins over their department's; the one in
 * force marked), a new version from a chosen day (today or later: closed days never change) with
 * one to four shifts, the grace minutes, the punch windows (how early a punch-in counts, how late
 * a punch-out counts) and the place, and the estate's holidays.
 */
export default function RuleSettingsPage() {
  const { t } = useTranslation();
  const [rules, setRules] = useState<CheckinRuleRow[]>([]);
  const [holidays, setHolidays] = useState<{ day: string; name: string }[]>([]);
  const [people, setPeople] = useState<CheckinStaff>({ departments: [], staff: [] });
  const [form, setForm] = useState(EMPTY);
  const [holiday, setHoliday] = useState({ day: '', name: '' });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    fetchCheckinRules(abort.signal).then(setRules, () => undefined);
    fetchCheckinHolidays(abort.signal).then(setHolidays, () => undefined);
    fetchCheckinStaff(abort.signal).then(setPeople, () => undefined);
    return () => abort.abort();
  }, [version]);

  const reload = () => setVersion((v) => v + 1);
  /** A version after the one its owner has in force (or of an owner with none yet): it may be deleted. */
  const isScheduled = (r: CheckinRuleRow) => {
    const inForce = rules.find((x) => x.current && x.departmentId === r.departmentId && x.personId === r.personId);
    return !r.current && (!inForce || r.effectiveFrom > inForce.effectiveFrom);
  };
  const set = (patch: Partial<RuleForm>) => setForm((f) => ({ ...f, ...patch }));
  const setShift = (i: number, patch: Partial<{ start: string; end: string }>) =>
    setForm((f) => ({ ...f, shifts: f.shifts.map((x, j) => (j === i ? { ...x, ...patch } : x)) }));
  const departmentName = (id: number | null) => people.departments.find((d) => d.departmentId === id)?.name ?? '';

  const save = async () => {
    try {
      await saveCheckinRule({
        ...(form.owner === 'person'
          ? { personId: Number(form.personId) || 0 }
          : { departmentId: Number(form.departmentId) || 0 }),
        effectiveFrom: form.effectiveFrom,
        workDays: form.workDays,
        shifts: form.shifts,
        lateGraceMinutes: Number(form.lateGraceMinutes),
        earlyGraceMinutes: Number(form.earlyGraceMinutes),
        earlyInMinutes: Number(form.earlyInMinutes),
        lateOutMinutes: Number(form.lateOutMinutes),
        lat: Number(form.lat),
        lng: Number(form.lng),
        radiusMetres: Number(form.radiusMetres),
        placeName: form.placeName || undefined,
      });
      showToast('success', t('checkin.ruleSaved'));
      reload();
    } catch {
      // told by the data-access layer
    }
  };
  const act = async (run: () => Promise<unknown>) => {
    try {
      await run();
      reload();
    } catch {
      // told by the data-access layer
    }
  };

  return (
    <div className="checkin-rules" data-testid="checkin-rules">
      <h2>{t('checkin.rules.versions')}</h2>
      <div className="checkin-rules-table" tabIndex={0} role="region" aria-label={t('checkin.rules.versions')}>
        <Table compact celled unstackable data-testid="rule-table">
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t('checkin.rules.owner')}</Table.HeaderCell>
              <Table.HeaderCell>{t('checkin.rules.effectiveFrom')}</Table.HeaderCell>
              <Table.HeaderCell>{t('checkin.rules.workDays')}</Table.HeaderCell>
              <Table.HeaderCell>{t('checkin.rules.shifts')}</Table.HeaderCell>
              <Table.HeaderCell>{t('checkin.rules.grace')}</Table.HeaderCell>
              <Table.HeaderCell>{t('checkin.rules.place')}</Table.HeaderCell>
              <Table.HeaderCell>{t('common.operate')}</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rules.map((r) => (
              <Table.Row key={r.ruleId} data-testid={`rule-row-${r.ruleId}`}>
                <Table.Cell>
                  {r.personId ? t('checkin.rules.personOwner', { name: r.personName ?? '' }) : (r.departmentName ?? '')}
                </Table.Cell>
                <Table.Cell>
                  {r.effectiveFrom} {r.current && <strong>({t('checkin.rules.current')})</strong>}
                </Table.Cell>
                <Table.Cell>{r.workDays.map((d) => t(`checkin.weekdays.${d}`)).join(' ')}</Table.Cell>
                <Table.Cell>{r.shifts.map((s) => `${s.start}–${s.end}`).join(', ')}</Table.Cell>
                <Table.Cell>
                  {t('checkin.rules.graceText', { late: r.lateGraceMinutes, early: r.earlyGraceMinutes })}
                  <br />
                  {t('checkin.rules.windowText', { early: r.earlyInMinutes, late: r.lateOutMinutes })}
                </Table.Cell>
                <Table.Cell>
                  {t('checkin.rules.placeText', { name: r.placeName ?? '', radius: r.radiusMetres })}
                </Table.Cell>
                <Table.Cell>
                  <Button
                    size="mini"
                    basic
                    type="button"
                    aria-label={t('checkin.rules.startFromFor', {
                      owner: r.personName ?? r.departmentName ?? '',
                      day: r.effectiveFrom,
                    })}
                    onClick={() => setForm(formOf(r))}
                    data-testid={`rule-copy-${r.ruleId}`}
                  >
                    {t('checkin.rules.startFrom')}
                  </Button>
                  {isScheduled(r) && (
                    <Button
                      size="mini"
                      basic
                      negative
                      aria-label={t('checkin.rules.deleteVersion', { day: r.effectiveFrom })}
                      onClick={() => void act(() => deleteCheckinRule(r.ruleId))}
                    >
                      {t('common.delete')}
                    </Button>
                  )}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      </div>

      <h2>{t('checkin.rules.newVersion')}</h2>
      <Form onSubmit={() => void save()} data-testid="rule-form">
        <fieldset className="checkin-owner">
          <legend>{t('checkin.rules.ownerKind')}</legend>
          {(['department', 'person'] as const).map((o) => (
            <label key={o} className="checkin-weekday">
              <input
                type="radio"
                name="rule-owner"
                value={o}
                checked={form.owner === o}
                onChange={() => set({ owner: o })}
                data-testid={`rule-owner-${o}`}
              />{' '}
              {t(`checkin.rules.ownerKinds.${o}`)}
            </label>
          ))}
        </fieldset>
        <Form.Group widths="equal">
          {form.owner === 'department' ? (
            <SelectField
              label={t('checkin.filters.department')}
              value={form.departmentId}
              onChange={(departmentId) => set({ departmentId })}
              options={people.departments.map((d) => ({ value: d.departmentId, text: d.name }))}
              emptyText={t('checkin.rules.chooseDepartment')}
              data-testid="rule-department"
            />
          ) : (
            <SelectField
              label={t('checkin.filters.person')}
              value={form.personId}
              onChange={(personId) => set({ personId })}
              options={people.staff.map((p) => ({
                value: p.personId,
                text: p.departmentId ? `${p.name} (${departmentName(p.departmentId)})` : p.name,
              }))}
              emptyText={t('checkin.rules.choosePerson')}
              data-testid="rule-person"
            />
          )}
          <Form.Input
            id="rule-from"
            type="date"
            required
            label={t('checkin.rules.effectiveFrom')}
            value={form.effectiveFrom}
            onChange={(_, v) => set({ effectiveFrom: v.value })}
          />
        </Form.Group>
        {form.owner === 'person' && <p className="checkin-hint">{t('checkin.rules.personHint')}</p>}
        <p className="checkin-hint">{t('checkin.rules.fromHint')}</p>
        <fieldset className="checkin-weekdays">
          <legend>{t('checkin.rules.workDays')}</legend>
          {WEEKDAYS.map((d) => (
            <label key={d} className="checkin-weekday">
              <input
                type="checkbox"
                checked={form.workDays.includes(d)}
                onChange={(e) =>
                  set({
                    workDays: e.target.checked ? [...form.workDays, d].sort() : form.workDays.filter((x) => x !== d),
                  })
                }
                data-testid={`rule-weekday-${d}`}
              />{' '}
              {t(`checkin.weekdays.${d}`)}
            </label>
          ))}
        </fieldset>
        <fieldset className="checkin-shifts" data-testid="rule-shifts">
          <legend>{t('checkin.rules.shifts')}</legend>
          <p className="checkin-hint">{t('checkin.rules.overnightHint')}</p>
          {form.shifts.map((shift, i) => (
            <div className="checkin-shift" key={i} data-testid={`rule-shift-${i}`}>
              <Form.Input
                id={`rule-start-${i}`}
                type="time"
                required
                label={t('checkin.rules.shiftStart', { n: i + 1 })}
                value={shift.start}
                onChange={(_, v) => setShift(i, { start: v.value })}
              />
              <Form.Input
                id={`rule-end-${i}`}
                type="time"
                required
                label={t('checkin.rules.shiftEnd', { n: i + 1 })}
                value={shift.end}
                onChange={(_, v) => setShift(i, { end: v.value })}
              />
              {form.shifts.length > 1 && (
                <Button
                  type="button"
                  basic
                  negative
                  size="small"
                  aria-label={t('checkin.rules.removeShiftN', { n: i + 1 })}
                  onClick={() => set({ shifts: form.shifts.filter((_, j) => j !== i) })}
                  data-testid={`rule-remove-shift-${i}`}
                >
                  {t('checkin.rules.removeShift')}
                </Button>
              )}
            </div>
          ))}
          {form.shifts.length < MAX_SHIFTS && (
            <Button
              type="button"
              basic
              size="small"
              icon="plus"
              content={t('checkin.rules.addShift')}
              onClick={() => set({ shifts: [...form.shifts, { start: '', end: '' }] })}
              data-testid="rule-add-shift"
            />
          )}
        </fieldset>
        <Form.Group widths="equal">
          <Form.Input
            id="rule-late"
            type="number"
            min={0}
            max={720}
            label={t('checkin.rules.lateGrace')}
            value={form.lateGraceMinutes}
            onChange={(_, v) => set({ lateGraceMinutes: v.value })}
          />
          <Form.Input
            id="rule-early"
            type="number"
            min={0}
            max={720}
            label={t('checkin.rules.earlyGrace')}
            value={form.earlyGraceMinutes}
            onChange={(_, v) => set({ earlyGraceMinutes: v.value })}
          />
        </Form.Group>
        <Form.Group widths="equal">
          <Form.Input
            id="rule-early-in"
            type="number"
            min={0}
            max={720}
            label={t('checkin.rules.earlyIn')}
            value={form.earlyInMinutes}
            onChange={(_, v) => set({ earlyInMinutes: v.value })}
          />
          <Form.Input
            id="rule-late-out"
            type="number"
            min={0}
            max={720}
            label={t('checkin.rules.lateOut')}
            value={form.lateOutMinutes}
            onChange={(_, v) => set({ lateOutMinutes: v.value })}
          />
        </Form.Group>
        <Form.Group widths="equal">
          <Form.Input
            id="rule-place"
            label={t('checkin.rules.placeName')}
            value={form.placeName}
            onChange={(_, v) => set({ placeName: v.value })}
          />
          <Form.Input
            id="rule-lat"
            required
            label={t('checkin.rules.lat')}
            value={form.lat}
            onChange={(_, v) => set({ lat: v.value })}
          />
          <Form.Input
            id="rule-lng"
            required
            label={t('checkin.rules.lng')}
            value={form.lng}
            onChange={(_, v) => set({ lng: v.value })}
          />
          <Form.Input
            id="rule-radius"
            type="number"
            min={10}
            required
            label={t('checkin.rules.radius')}
            value={form.radiusMetres}
            onChange={(_, v) => set({ radiusMetres: v.value })}
          />
        </Form.Group>
        <Button primary type="submit" data-testid="rule-save">
          {t('checkin.rules.save')}
        </Button>
      </Form>

      <h2>{t('checkin.rules.holidays')}</h2>
      <ul data-testid="holiday-list">
        {holidays.map((h) => (
          <li key={h.day}>
            {h.day} {h.name}{' '}
            <Button
              size="mini"
              basic
              negative
              aria-label={t('checkin.rules.deleteHoliday', { day: h.day })}
              onClick={() => void act(() => deleteCheckinHoliday(h.day))}
            >
              {t('common.delete')}
            </Button>
          </li>
        ))}
      </ul>
      <Form onSubmit={() => void act(() => saveCheckinHoliday(holiday.day, holiday.name))} data-testid="holiday-form">
        <Form.Group widths="equal">
          <Form.Input
            id="holiday-day"
            type="date"
            required
            label={t('checkin.rules.holidayDay')}
            value={holiday.day}
            onChange={(_, v) => setHoliday((h) => ({ ...h, day: v.value }))}
          />
          <Form.Input
            id="holiday-name"
            required
            label={t('checkin.rules.holidayName')}
            value={holiday.name}
            onChange={(_, v) => setHoliday((h) => ({ ...h, name: v.value }))}
          />
        </Form.Group>
        <Button type="submit">{t('checkin.rules.addHoliday')}</Button>
      </Form>
    </div>
  );
}
