import { Link } from 'react-router-dom';
import { Button, Card, Icon, Message, Statistic, type SemanticCOLORS, type SemanticICONS } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { SOS_RECIPIENT_PERMISSIONS, alarmCount, messageCount } from '@pm/shared';
import { session } from '../../auth/states/session';
import { liveState } from '../../live/states/liveState';
import { CountValue } from '../../ui/components/CountValue';
import { formatTime } from '../../ui/utils/formatTime';
import { DashboardWidgets } from './DashboardWidgets';
import { WorkCharts } from './WorkCharts';

interface Tile {
  key: string;
  value: number;
  icon: SemanticICONS;
  color: SemanticCOLORS;
}

/**
 * The dashboard: live counts from the gateway's snapshot, updated in every open tab. Counts never
 * loaded show a placeholder, not 0; counts kept while the connection is lost say since when.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const { snapshot: s, synced, loaded, status, since } = useSnapshot(liveState);
  const { perms } = useSnapshot(session);
  const seesAlarms = SOS_RECIPIENT_PERMISSIONS.some((p) => perms.includes(p));
  const tiles: Tile[] = [
    { key: 'complaintsUntreated', value: s.complaints.untreated, icon: 'comment alternate', color: 'red' },
    { key: 'complaintsProcessing', value: s.complaints.processing, icon: 'comment alternate outline', color: 'orange' },
    { key: 'workOrdersUntreated', value: s.eventOrders.untreated, icon: 'wrench', color: 'red' },
    { key: 'workOrdersProcessing', value: s.eventOrders.processing, icon: 'wrench', color: 'orange' },
    { key: 'unreadMessages', value: messageCount(s), icon: 'bell', color: 'teal' },
    ...(seesAlarms ? [{ key: 'alarms', value: alarmCount(s), icon: 'alarm' as const, color: 'red' as const }] : []),
  ];
  const stale = loaded && status !== 'live';
  return (
    <div
      className={`dashboard${stale ? ' stale' : ''}`}
      data-testid="dashboard"
      data-live={synced ? 'synced' : stale ? 'stale' : 'waiting'}
    >
      {stale && since !== null && (
        <Message warning size="small" data-testid="dashboard-stale">
          {t('dashboard.staleSince', { time: formatTime(since).slice(11) })}
        </Message>
      )}
      <Card.Group itemsPerRow={3} stackable doubling>
        {tiles.map((tile) => (
          <Card key={tile.key} data-testid={`tile-${tile.key}`}>
            <Card.Content>
              <Icon name={tile.icon} color={tile.color} size="big" className="tile-icon" aria-hidden="true" />
              <Statistic size="small" color={tile.color}>
                <Statistic.Value data-testid={`count-${tile.key}`}>
                  <CountValue value={loaded ? tile.value : null} />
                </Statistic.Value>
                <Statistic.Label>{t(`dashboard.fields.${tile.key}`)}</Statistic.Label>
              </Statistic>
            </Card.Content>
          </Card>
        ))}
      </Card.Group>
      <DashboardWidgets />
      <WorkCharts />
      <Button
        as={Link}
        to="/dashboard/historical-message"
        basic
        size="small"
        icon="history"
        content={t('historicalMessages.open')}
        className="dashboard-history"
        data-testid="open-historical-messages"
      />
    </div>
  );
}
