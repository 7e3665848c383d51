import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { quickRange, validateDateRange, type DateRange, type QuickRange } from '../utils/dateRange';

interface Props {
  value: DateRange;
  onChange: (r: DateRange) => void;
}

const QUICK: QuickRange[] = ['today', 'thisWeek', 'thisMonth'];

/** Start and end date with quick choices; shows the SPEC §5 rule that is broken. */
export function DateRangePicker({ value, onChange }: Props) {
  const { t } = useTranslation();
  const errors = validateDateRange(value);
  return (
    <div className="date-range-picker" data-testid="date-range-picker">
      <Form.Group inline>
        <Form.Input
          type="date"
          label={t('common.startDate')}
          aria-label={t('common.startDate')}
          value={value.start}
          max={value.end || undefined}
          onChange={(_, d) => onChange({ ...value, start: String(d.value) })}
          error={errors.start ? t(errors.start) : undefined}
        />
        <Form.Input
          type="date"
          label={t('common.endDate')}
          aria-label={t('common.endDate')}
          value={value.end}
          min={value.start || undefined}
          onChange={(_, d) => onChange({ ...value, end: String(d.value) })}
          error={errors.end ? t(errors.end) : undefined}
        />
        <Button.Group size="small" basic>
          {QUICK.map((q) => (
            <Button type="button" key={q} onClick={() => onChange(quickRange(q))}>
              {t(`common.${q}`)}
            </Button>
          ))}
        </Button.Group>
      </Form.Group>
    </div>
  );
}
