import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayTimeZone, formatTime } from '../../ui/utils/formatTime';

/** hh:mm:ss in a zone (the estate's); formatTime has minutes only. */
function clockText(now: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(now);
}

/**
 * The estate's clock (housing_estate.time_zone, from the session; never the browser's zone), a
 * large hh:mm:ss and the date. Its own component: the second's tick re-renders only the clock.
 */
export function WallClock() {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const zone = displayTimeZone();
  return (
    <div className="wall-clock" data-testid="wall-clock" data-time-zone={zone}>
      <span className="visually-hidden">{t('wall.clock')}</span>
      <time className="wall-clock-time" dateTime={new Date(now).toISOString()}>
        {clockText(now, zone)}
      </time>
      <span className="wall-clock-date">{formatTime(now, { dateOnly: true })}</span>
    </div>
  );
}
