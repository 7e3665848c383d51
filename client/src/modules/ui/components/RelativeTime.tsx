import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { relativeTime } from '../utils/relativeTime';

export function RelativeTime({ value }: { value: string | number | Date }) {
  const { t } = useTranslation();
  const r = relativeTime(value);
  const text = 'date' in r ? r.date : 'count' in r ? t(r.key, { count: r.count }) : t(r.key);
  return <time title={dayjs(value).isValid() ? dayjs(value).format('YYYY-MM-DD HH:mm') : undefined}>{text}</time>;
}
