import { useEffect, useId, useRef, useState } from 'react';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { DayPicker } from 'react-day-picker';
import { enUS, zhCN, zhTW } from 'react-day-picker/locale';
import 'react-day-picker/style.css';
import { parseLanguage } from '@pm/shared';
import { isDay, quickRange, validateDateRange, type DateRange, type QuickRange } from '../utils/dateRange';

interface Props {
  value: DateRange;
  onChange: (r: DateRange) => void;
  /** Zone of the quick choices' "today"; the estate's when left out. */
  timeZone?: string;
}

const QUICK: QuickRange[] = ['today', 'thisWeek', 'thisMonth'];
/**
 * English day buttons read "Sunday, 1 November 2026" rather than the library's "Sunday,
 * November 1st, 2026": the name must contain the number the button shows (WCAG 2.5.3).
 */
const enDays = {
  ...enUS,
  labels: {
    ...enUS.labels,
    labelDayButton: (date: Date, modifiers: { today?: boolean; selected?: boolean }) => {
      const day = date.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
      return `${modifiers.today ? 'Today, ' : ''}${day}${modifiers.selected ? ', selected' : ''}`;
    },
  },
};
/** The calendar's month names, weekday names and button labels per console language. */
const CALENDAR_LOCALES = { en: enDays, 'zh-CN': zhCN, 'zh-TW': zhTW } as const;

const toDate = (day: string) => new Date(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10));
const pad = (n: number) => String(n).padStart(2, '0');
const toDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/**
 * Start and end date, typed or chosen in a calendar, always shown as yyyy-MM-dd whatever the
 * language (the browser's native date input follows the browser's locale instead), with weeks
 * from Monday (SPEC §9), the quick choices of SPEC §2 and the range rules of SPEC §5.
 * The calendar (react-day-picker) works with the arrow keys; Escape closes it.
 */
export function DateRangePicker({ value, onChange, timeZone }: Props) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [editing, setEditing] = useState<'start' | 'end' | null>(null);
  const [open, setOpen] = useState(false);
  /** The first day clicked in the calendar, until the second one closes the range. */
  const [firstPick, setFirstPick] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const errors = validateDateRange(value);

  const close = (focusToggle: boolean) => {
    setOpen(false);
    setFirstPick(null);
    if (focusToggle) toggle.current?.focus();
  };

  // A click outside closes the calendar.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const pick = (day: Date) => {
    const d = toDay(day);
    if (firstPick === null) {
      setFirstPick(d);
      onChange({ start: d, end: d });
      return;
    }
    onChange(d < firstPick ? { start: d, end: firstPick } : { start: firstPick, end: d });
    close(true);
  };

  const field = (name: 'start' | 'end') => {
    const error =
      errors[name] && !(errors[name] === 'validation.dateFormat' && editing === name) ? t(errors[name]) : '';
    const inputId = `${id}-${name}`;
    return (
      <Form.Field error={!!error}>
        <label htmlFor={inputId}>{t(name === 'start' ? 'common.startDate' : 'common.endDate')}</label>
        <input
          id={inputId}
          name={`${name}Date`}
          value={value[name]}
          placeholder="yyyy-MM-dd"
          autoComplete="off"
          inputMode="numeric"
          maxLength={10}
          aria-invalid={!!error}
          aria-describedby={error ? `${inputId}-error` : undefined}
          onFocus={() => setEditing(name)}
          onBlur={() => setEditing(null)}
          onChange={(e) => onChange({ ...value, [name]: e.target.value.trim() })}
          data-testid={`date-${name}`}
        />
        {error && (
          <div id={`${inputId}-error`} className="ui basic red pointing prompt label">
            {error}
          </div>
        )}
      </Form.Field>
    );
  };

  const language = parseLanguage(i18n.language) ?? 'en';
  const from = isDay(value.start) ? toDate(value.start) : undefined;
  const to = isDay(value.end) ? toDate(value.end) : undefined;
  return (
    <div
      ref={root}
      className="date-range-picker"
      role="group"
      aria-label={t('common.dateRange')}
      data-testid="date-range-picker"
    >
      {field('start')}
      {field('end')}
      <div className="date-range-actions">
        <button
          ref={toggle}
          type="button"
          className="ui basic icon button"
          aria-label={t('common.chooseDates')}
          title={t('common.chooseDates')}
          aria-expanded={open}
          aria-controls={`${id}-calendar`}
          onClick={() => (open ? close(false) : setOpen(true))}
          data-testid="date-calendar-toggle"
        >
          <i className="calendar alternate outline icon" aria-hidden="true" />
        </button>
        <Button.Group size="small" basic>
          {QUICK.map((q) => (
            <Button type="button" key={q} onClick={() => onChange(quickRange(q, new Date(), timeZone))}>
              {t(`common.${q}`)}
            </Button>
          ))}
        </Button.Group>
      </div>
      {open && (
        <div
          id={`${id}-calendar`}
          className="date-range-calendar"
          role="dialog"
          aria-label={t('common.chooseDates')}
          data-testid="date-calendar"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close(true);
            }
          }}
        >
          <DayPicker
            mode="range"
            locale={CALENDAR_LOCALES[language]}
            weekStartsOn={1}
            selected={from ? { from, to } : undefined}
            onSelect={(_, day) => pick(day)}
            defaultMonth={from ?? new Date()}
            autoFocus
          />
        </div>
      )}
    </div>
  );
}
