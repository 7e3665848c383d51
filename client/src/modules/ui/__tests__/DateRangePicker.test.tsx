import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import '../../i18n/i18n';
import { DateRangePicker } from '../components/DateRangePicker';
import { quickRange, validateDateRange, type DateRange } from '../utils/dateRange';

afterEach(cleanup);

function Harness({ initial }: { initial: DateRange }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateRangePicker value={value} onChange={setValue} />
      <output data-testid="value">{`${value.start}|${value.end}`}</output>
    </>
  );
}

describe('date range rules', () => {
  it('when only a start is given, then the end is required', () => {
    expect(validateDateRange({ start: '2026-01-02', end: '' })).toEqual({ start: '', end: 'validation.endRequired' });
  });
  it('when only an end is given, then the start is required', () => {
    expect(validateDateRange({ start: '', end: '2026-01-02' })).toEqual({ start: 'validation.startRequired', end: '' });
  });
  it('when the end is before the start, then the end is refused; the same day is fine', () => {
    expect(validateDateRange({ start: '2026-01-02', end: '2026-01-01' }).end).toBe('validation.endBeforeStart');
    expect(validateDateRange({ start: '2026-01-02', end: '2026-01-02' })).toEqual({ start: '', end: '' });
  });
  it('when "this week" is chosen on a Sunday, then the week runs from the Monday before', () => {
    expect(quickRange('thisWeek', new Date(2026, 10, 22))).toEqual({ start: '2026-11-16', end: '2026-11-22' });
    expect(quickRange('thisWeek', new Date(2026, 10, 23))).toEqual({ start: '2026-11-23', end: '2026-11-29' });
    expect(quickRange('thisMonth', new Date(2026, 1, 10))).toEqual({ start: '2026-02-01', end: '2026-02-28' });
  });
  it('when a start without an end is shown, then the message appears and a quick choice fills both', () => {
    render(<Harness initial={{ start: '2026-01-02', end: '' }} />);
    expect(screen.getByText('Please choose the end time')).toBeTruthy();
    fireEvent.click(screen.getByText('Today'));
    const [start, end] = screen.getByTestId('value').textContent!.split('|');
    expect(start).toBe(end);
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(screen.queryByText('Please choose the end time')).toBeNull();
  });
  it('when a date is typed wrongly, then the format message shows once the field is left, and the field is named', () => {
    render(<Harness initial={{ start: '', end: '' }} />);
    const start = screen.getByLabelText('Start date');
    fireEvent.focus(start);
    fireEvent.change(start, { target: { value: '2026/11/01' } });
    expect(screen.queryByText('Enter the date as yyyy-MM-dd')).toBeNull();
    fireEvent.blur(start);
    expect(screen.getByText('Enter the date as yyyy-MM-dd')).toBeTruthy();
    expect(start.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('End date').getAttribute('placeholder')).toBe('yyyy-MM-dd');
  });
});
