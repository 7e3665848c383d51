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

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];

/** The new version's form, as typed. */
const EMPTY = {
  departmentId: '',
  effectiveFrom: '',
  workDays: [1, 2, 3, 4, 5],
  start: '09:00',
  end: '18:00',
  start2: '',
  end2: '',
  lateGraceMinutes: '5',
  earlyGraceMinutes: '5',
  lat: '',
  lng: '',
  radiusMetres: '200',
  placeName: '',
};

/**
 * /check-in/check-in-rule-settings (issue 32): every version of each department's rule (the one
 * in force marked), a new version from a chosen day (today or later: closed days never change),
 * and the estate's holidays.
 */
export default function RuleSettingsPage() {
  const { t } = useTranslation();
  const [rules, setRules] = useState<CheckinRuleRow[]>([]);
  const [holidays, setHolidays] = useState<{ day: string; name: string }[]>([]);
  const [departments, setDepartments] = useState<{ departmentId: number; name: string }[]>([]);
  const [form, setForm] = useState(EMPTY);
  const [holiday, setHoliday] = useState({ day: '', name: '' });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    fetchCheckinRules(abort.signal).then(setRules, () => undefined);
    fetchCheckinHolidays(abort.signal).then(setHolidays, () => undefined);
    fetchCheckinStaff(abort.signal).then(
      (d) => setDepartments(d.departments),
      () => undefined,
    );
    return () => abort.abort();
  }, [version]);

  const reload = () => setVersion((v) => v + 1);
  /** A version after the one its owner has in force (or of an owner with none yet): it may be deleted. */
  const isScheduled = (r: CheckinRuleRow) => {
    const inForce = rules.find((x) => x.current && x.departmentId === r.departmentId && x.personId === r.personId);
    return !r.current && (!inForce || r.effectiveFrom > inForce.effectiveFrom);
  };
  const set = (patch: Partial<typeof EMPTY>) => setForm((f) => ({ ...f, ...patch }));

  const save = async () => {
    try {
      await saveCheckinRule({
        departmentId: Number(form.departmentId) || undefined,
        effectiveFrom: form.effectiveFrom,
        workDays: form.workDays,
        shifts: [
          { start: form.start, end: form.end },
          ...(form.start2 && form.end2 ? [{ start: form.start2, end: form.end2 }] : []),
        ],
        lateGraceMinutes: Number(form.lateGraceMinutes),
        earlyGraceMinutes: Number(form.earlyGraceMinutes),
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
                <Table.Cell>{r.departmentName ?? r.personName}</Table.Cell>
                <Table.Cell>
                  {r.effectiveFrom} {r.current && <strong>({t('checkin.rules.current')})</strong>}
                </Table.Cell>
                <Table.Cell>{r.workDays.map((d) => t(`checkin.weekdays.${d}`)).join(' ')}</Table.Cell>
                <Table.Cell>{r.shifts.map((s) => `${s.start}–${s.end}`).join(', ')}</Table.Cell>
                <Table.Cell>
                  {t('checkin.rules.graceText', { late: r.lateGraceMinutes, early: r.earlyGraceMinutes })}
                </Table.Cell>
                <Table.Cell>
                  {t('checkin.rules.placeText', { name: r.placeName ?? '', radius: r.radiusMetres })}
                </Table.Cell>
                <Table.Cell>
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
        <Form.Group widths="equal">
          <SelectField
            label={t('checkin.filters.department')}
            value={form.departmentId}
            onChange={(departmentId) => set({ departmentId })}
            options={departments.map((d) => ({ value: d.departmentId, text: d.name }))}
            emptyText={t('checkin.rules.chooseDepartment')}
            data-testid="rule-department"
          />
          <Form.Input
            id="rule-from"
            type="date"
            required
            label={t('checkin.rules.effectiveFrom')}
            value={form.effectiveFrom}
            onChange={(_, v) => set({ effectiveFrom: v.value })}
          />
        </Form.Group>
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
              />{' '}
              {t(`checkin.weekdays.${d}`)}
            </label>
          ))}
        </fieldset>
        <Form.Group widths="equal">
          <Form.Input
            id="rule-start"
            type="time"
            required
            label={t('checkin.rules.start')}
            value={form.start}
            onChange={(_, v) => set({ start: v.value })}
          />
          <Form.Input
            id="rule-end"
            type="time"
            required
            label={t('checkin.rules.end')}
            value={form.end}
            onChange={(_, v) => set({ end: v.value })}
          />
          <Form.Input
            id="rule-start2"
            type="time"
            label={t('checkin.rules.start2')}
            value={form.start2}
            onChange={(_, v) => set({ start2: v.value })}
          />
          <Form.Input
            id="rule-end2"
            type="time"
            label={t('checkin.rules.end2')}
            value={form.end2}
            onChange={(_, v) => set({ end2: v.value })}
          />
        </Form.Group>
        <Form.Group widths="equal">
          <Form.Input
            id="rule-late"
            type="number"
            min={0}
            label={t('checkin.rules.lateGrace')}
            value={form.lateGraceMinutes}
            onChange={(_, v) => set({ lateGraceMinutes: v.value })}
          />
          <Form.Input
            id="rule-early"
            type="number"
            min={0}
            label={t('checkin.rules.earlyGrace')}
            value={form.earlyGraceMinutes}
            onChange={(_, v) => set({ earlyGraceMinutes: v.value })}
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
