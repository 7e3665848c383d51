import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Header, Loader, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { RelativeTime } from '../../ui/components/RelativeTime';
import type { WidgetRows } from '../hooks/useWidgetRows';

/** One row of a widget: a real link to the record (or its screen), what it is, and when. */
export interface WidgetRow {
  key: number;
  to: string;
  title: string;
  /** A status or type label shown before the title. */
  label?: ReactNode;
  detail?: string;
  time: string;
}

interface Props {
  id: string;
  title: string;
  /** The area's screen ("View all"). */
  screen: string;
  /** Counts next to the title (e.g. untreated / processing). */
  counts?: ReactNode;
  data: WidgetRows<WidgetRow>;
  empty: string;
}

/**
 * A dashboard widget (SPEC §1): its latest rows, newest first, each a link to its record, with
 * the time relative to now (SPEC §9). `data-loaded` says the first answer is in (tests, bench).
 */
export function DashboardWidget({ id, title, screen, counts, data, empty }: Props) {
  const { t } = useTranslation();
  const headingId = `widget-${id}-title`;
  return (
    <Segment
      as="section"
      className="dash-widget"
      aria-labelledby={headingId}
      data-testid={`widget-${id}`}
      data-loaded={data.rows !== null}
      data-rows={data.rows?.length ?? 0}
    >
      <div className="dash-widget-head">
        <Header as="h2" size="small" id={headingId}>
          {title}
        </Header>
        {counts}
      </div>
      {data.failed && (
        <p className="dash-widget-note" role="alert">
          {t('dashboardWidgets.failed')}
        </p>
      )}
      {data.rows === null && !data.failed && <Loader active inline="centered" size="small" />}
      {data.rows?.length === 0 && <p className="dash-widget-note">{empty}</p>}
      {data.rows && data.rows.length > 0 && (
        <ul className="dash-widget-rows">
          {data.rows.map((r) => (
            <li key={r.key} data-testid="widget-row">
              <Link to={r.to} className="dash-widget-link">
                {r.label}
                <span className="dash-widget-title">{r.title}</span>
              </Link>
              <span className="dash-widget-meta">
                {r.detail && <span className="dash-widget-detail">{r.detail}</span>}
                <RelativeTime value={r.time} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <Link to={screen} className="dash-widget-all" aria-label={`${t('dashboardWidgets.viewAll')}: ${title}`}>
        {t('dashboardWidgets.viewAll')}
      </Link>
    </Segment>
  );
}
