import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { pieName, roundedPercentages } from '../utils/pieSeries';

// apexcharts is large (≈ 270 kB gzip): loaded only when a pie is shown.
const Chart = lazy(() => import('react-apexcharts'));

interface Props {
  title: string;
  slices: { name: string; value: number }[];
  'data-testid'?: string;
}

/**
 * A pie of read or vote results: legend names cut at 9 characters, whole percentages that sum to
 * 100 (SPEC §9). The numbers are also written out beside it, for screen readers and for tests.
 */
export function ResultPie({ title, slices, ...rest }: Props) {
  const { t } = useTranslation();
  const percents = roundedPercentages(slices.map((s) => s.value));
  const total = slices.reduce((a, s) => a + s.value, 0);
  return (
    <figure className="announcement-pie" data-testid={rest['data-testid']}>
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      {total > 0 ? (
        <Suspense fallback={<div style={{ height: 220 }} />}>
          <Chart
            type="pie"
            height={220}
            series={slices.map((s) => s.value)}
            options={{
              labels: slices.map((s) => pieName(s.name)),
              legend: { position: 'bottom' },
              dataLabels: {
                formatter: (_v: unknown, o?: { seriesIndex: number }) => `${percents[o?.seriesIndex ?? 0]}%`,
              },
              tooltip: { y: { formatter: (v: number) => String(v) } },
              chart: { animations: { enabled: false } },
            }}
          />
        </Suspense>
      ) : (
        <p>{t('announcements.noData')}</p>
      )}
      <ul className="announcement-pie-values" data-testid="pie-values">
        {slices.map((s, i) => (
          <li key={s.name} data-name={s.name}>
            {s.name}: {s.value} ({percents[i]}%)
          </li>
        ))}
      </ul>
    </figure>
  );
}
