import { useTranslation } from 'react-i18next';
import { formatTime } from '../utils/formatTime';
import { relativeTime } from '../utils/relativeTime';

/** "just now", "5 minutes ago" … with the full time on hover (SPEC §9). */
export function RelativeTime({ value, timeZone }: { value: string | number | Date; timeZone?: string }) {
  const { t } = useTranslation();
  const r = relativeTime(value, new Date(), timeZone);
  const text = 'date' in r ? r.date : 'count' in r ? t(r.key, { count: r.count }) : t(r.key);
  return <time title={formatTime(value, { timeZone }) || undefined}>{text}</time>;
}
