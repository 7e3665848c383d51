import { Card, Icon, Statistic, type SemanticCOLORS, type SemanticICONS } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { alarmCount, messageCount } from '@pm/shared';
import { liveState } from '../../live/states/liveState';

interface Tile {
  key: string;
  value: number;
  icon: SemanticICONS;
  color: SemanticCOLORS;
}

/** The dashboard: live counts from the gateway's snapshot, updated in every open tab. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const { snapshot: s, synced } = useSnapshot(liveState);
  const tiles: Tile[] = [
    { key: 'complaintsUntreated', value: s.complaints.untreated, icon: 'comment alternate', color: 'red' },
    { key: 'complaintsProcessing', value: s.complaints.processing, icon: 'comment alternate outline', color: 'orange' },
    { key: 'workOrdersUntreated', value: s.eventOrders.untreated, icon: 'wrench', color: 'red' },
    { key: 'workOrdersProcessing', value: s.eventOrders.processing, icon: 'wrench', color: 'orange' },
    { key: 'unreadMessages', value: messageCount(s), icon: 'bell', color: 'teal' },
    { key: 'alarms', value: alarmCount(s), icon: 'alarm', color: 'red' },
  ];
  return (
    <div className="dashboard" data-testid="dashboard" data-live={synced ? 'synced' : 'waiting'}>
      <Card.Group itemsPerRow={3} stackable doubling>
        {tiles.map((tile) => (
          <Card key={tile.key} data-testid={`tile-${tile.key}`}>
            <Card.Content>
              <Icon name={tile.icon} color={tile.color} size="big" className="tile-icon" />
              <Statistic size="small" color={tile.color}>
                <Statistic.Value data-testid={`count-${tile.key}`}>{tile.value}</Statistic.Value>
                <Statistic.Label>{t(`dashboard.fields.${tile.key}`)}</Statistic.Label>
              </Statistic>
            </Card.Content>
          </Card>
        ))}
      </Card.Group>
    </div>
  );
}
