import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { EmptyPlaceholder } from '../../ui/components/EmptyPlaceholder';
import { formatTime } from '../../ui/utils/formatTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { orderedCalls, showCall, sosAlarms } from '../states/sosAlarms';
import { viewSosCall } from '../utils/viewSosCall';
import { SosStateLabel } from './SosStateLabel';
import '../disaster.css';

/**
 * SPEC §2 alert-detail (alarm declaration): the SOS calls not yet closed, unacknowledged first,
 * live; `?open=<id>` (the alarm message's View) shows the call in the alarm dialog.
 */
export default function AlertDetailPage() {
  const { t } = useTranslation();
  const snap = useSnapshot(sosAlarms);
  const [params] = useSearchParams();
  const open = Number(params.get('open')) || null;
  useEffect(() => {
    if (open) void viewSosCall(open);
  }, [open]);
  const calls = orderedCalls(snap.calls as typeof sosAlarms.calls);
  if (calls.length === 0) return <EmptyPlaceholder text={t('disaster.sos.empty')} />;
  return (
    <Table unstackable className="disaster-screen sos-table" data-testid="sos-table">
      <Table.Header>
        <Table.Row>
          <Table.HeaderCell>{t('disaster.columns.status')}</Table.HeaderCell>
          <Table.HeaderCell>{t('disaster.sos.person')}</Table.HeaderCell>
          <Table.HeaderCell>{t('disaster.sos.house')}</Table.HeaderCell>
          <Table.HeaderCell>{t('disaster.sos.position')}</Table.HeaderCell>
          <Table.HeaderCell>{t('disaster.sos.time')}</Table.HeaderCell>
          <Table.HeaderCell>{t('disaster.columns.actions')}</Table.HeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {calls.map((c) => (
          <Table.Row key={c.id} data-testid="sos-row" data-state={c.state} negative={c.state === 'open'}>
            <Table.Cell>
              <SosStateLabel state={c.state} />
            </Table.Cell>
            <Table.Cell>{c.personName}</Table.Cell>
            <Table.Cell>{unitDisplay(c)}</Table.Cell>
            <Table.Cell>{c.position}</Table.Cell>
            <Table.Cell>{formatTime(c.createdAt)}</Table.Cell>
            <Table.Cell>
              <Button size="mini" basic primary onClick={() => showCall(c.id)} data-testid="sos-open">
                {t('disaster.sos.show')}
              </Button>
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table>
  );
}
