import { useEffect, useState } from 'react';
import { Button, Label, Menu, Segment, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { HouseStatus, Identity, JoinStatus, OperationType, Relation } from '@pm/shared';
import { fetchHouseHistory, fetchHouseMembers, type HistoryRow, type PersonHouseRow } from '../../api';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { ListPagination } from '../../ui/components/ListPagination';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { useHouseActions } from '../hooks/useHouseActions';
import { HistoryDetailDialog } from './HistoryDetailDialog';
import { OwnerInfoDialog } from './OwnerInfoDialog';
import { PersonHouseActions } from './PersonHouseActions';
import { RefuseDialog } from './RefuseDialog';
import '../owners.css';

type Tab = 'owner' | 'tenants' | 'members' | 'history';
const IDENTITY_OF: Record<Exclude<Tab, 'history'>, number> = {
  owner: Identity.owner,
  tenants: Identity.tenant,
  members: Identity.relativesFriends,
};
const TABS: Tab[] = ['owner', 'tenants', 'members', 'history'];

/**
 * The people of one unit, parking space or shop (SPEC §2 tabs "unit, tenant, member and history
 * staff info"): the owner, the tenants, the relatives and friends by relation, and the history
 * staff, with the actions (certify or refuse a pending request, set as history staff, remove a
 * member; each asks first) and the owner-info and history-staff-detail dialogs. It follows the
 * house live: a join or leave of this house from anywhere reloads it. The buildings info dialogs
 * show it.
 */
export function HousePeopleTabs({ houseType, houseId }: { houseType: 1 | 2 | 3; houseId: number }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('owner');
  const [page, setPage] = useState({ page: 1, limit: 10 });
  const [rows, setRows] = useState<{ list: (PersonHouseRow | HistoryRow)[]; total: number } | null>(null);
  // The house's status; undefined until it loaded ("–").
  const [status, setStatus] = useState<number | null | undefined>(undefined);
  const [reloads, setReloads] = useState(0);
  const [info, setInfo] = useState<number | null>(null);
  const [history, setHistory] = useState<number | null>(null);
  const reload = () => setReloads((n) => n + 1);
  const actions = useHouseActions(reload);

  useEffect(() => {
    const ac = new AbortController();
    setRows(null);
    const load =
      tab === 'history'
        ? fetchHouseHistory(houseType, houseId, page.page, page.limit, ac.signal)
        : fetchHouseMembers(
            { houseType, houseId, identity: IDENTITY_OF[tab], withPending: true, page: page.page, limit: page.limit },
            ac.signal,
          );
    load.then(setRows).catch(() => undefined);
    // The house's status (the people page carries it).
    fetchHouseMembers({ houseType, houseId, withPending: true, page: 1, limit: 1 }, ac.signal)
      .then((p) => setStatus(p.houseStatus))
      .catch(() => undefined);
    return () => ac.abort();
  }, [houseType, houseId, tab, page, reloads]);

  useLiveEvent((e) => {
    if (e.topic === 'residents' && e.payload.houseType === houseType && e.payload.houseId === houseId) reload();
  });

  const label = (tb: Tab) => t(`owners.tabs.${tb}`);
  return (
    <div className="house-people" data-testid="house-people">
      <p>
        {t('owners.fields.houseStatus')}:{' '}
        <Label size="small" data-testid="house-status">
          {status === undefined || status === null ? '–' : enumLabel(t, HouseStatus, status)}
        </Label>
      </p>
      <Menu pointing secondary role="tablist" aria-label={t('owners.tabs.label')} className="house-people-tabs">
        {TABS.map((tb) => (
          <Menu.Item
            key={tb}
            as="button"
            type="button"
            role="tab"
            aria-selected={tab === tb}
            active={tab === tb}
            onClick={() => {
              setTab(tb);
              setPage((p) => ({ ...p, page: 1 }));
            }}
            data-testid={`people-tab-${tb}`}
          >
            {label(tb)}
          </Menu.Item>
        ))}
      </Menu>
      <div role="tabpanel" aria-label={label(tab)}>
        {rows === null ? (
          <Segment loading basic style={{ minHeight: 60 }} />
        ) : rows.list.length === 0 ? (
          <p data-testid="people-empty">{t('owners.nobody')}</p>
        ) : (
          <Table compact unstackable className="house-people-table" data-testid="people-table">
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>{t('owners.fields.name')}</Table.HeaderCell>
                <Table.HeaderCell>{t('owners.fields.identity')}</Table.HeaderCell>
                <Table.HeaderCell>
                  {tab === 'history' ? t('owners.fields.leaveTime') : t('owners.fields.joinTime')}
                </Table.HeaderCell>
                <Table.HeaderCell>
                  {tab === 'history' ? t('owners.fields.operationType') : t('owners.fields.status')}
                </Table.HeaderCell>
                <Table.HeaderCell>{t('owners.columns.actions')}</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {tab === 'history'
                ? (rows.list as HistoryRow[]).map((h) => (
                    <Table.Row key={h.personHouseHistoryId} data-testid={`history-row-${h.personId}`}>
                      <Table.Cell>{h.name}</Table.Cell>
                      <Table.Cell>{enumLabel(t, Identity, h.identity)}</Table.Cell>
                      <Table.Cell>{h.leaveTime ? formatTime(h.leaveTime) : '–'}</Table.Cell>
                      <Table.Cell>{enumLabel(t, OperationType, h.operationType)}</Table.Cell>
                      <Table.Cell>
                        <Button
                          size="mini"
                          basic
                          primary
                          onClick={() => setHistory(h.personHouseHistoryId)}
                          aria-label={`${t('owners.actions.historyDetail')} ${h.name}`}
                          data-testid="history-detail-link"
                        >
                          {t('owners.actions.historyDetail')}
                        </Button>
                      </Table.Cell>
                    </Table.Row>
                  ))
                : (rows.list as PersonHouseRow[]).map((r) => (
                    <Table.Row key={r.personHouseId} data-testid={`person-row-${r.personId}`}>
                      <Table.Cell>
                        <Button
                          className="link-button"
                          basic
                          size="mini"
                          onClick={() => setInfo(r.personHouseId)}
                          aria-label={`${t('owners.actions.moreDetail')} ${r.name}`}
                          data-testid="owner-info-link"
                        >
                          {r.name}
                        </Button>
                      </Table.Cell>
                      <Table.Cell>
                        {enumLabel(t, Identity, r.identity)}
                        {r.relation ? ` · ${enumLabel(t, Relation, r.relation)}` : ''}
                      </Table.Cell>
                      <Table.Cell>{formatTime(r.joinTime)}</Table.Cell>
                      <Table.Cell>
                        <Label size="mini" color={r.status === JoinStatus.pending ? 'orange' : 'green'}>
                          {enumLabel(t, JoinStatus, r.status)}
                        </Label>
                      </Table.Cell>
                      <Table.Cell>
                        <PersonHouseActions row={r} actions={actions} withHistory />
                      </Table.Cell>
                    </Table.Row>
                  ))}
            </Table.Body>
          </Table>
        )}
        {rows && (
          <ListPagination
            total={rows.total}
            page={page.page}
            limit={page.limit}
            onChange={(p, limit) => setPage({ page: p, limit })}
            label={t('common.paginationOf', { name: label(tab) })}
          />
        )}
      </div>
      <OwnerInfoDialog personHouseId={info} onClose={() => setInfo(null)} />
      <HistoryDetailDialog historyId={history} onClose={() => setHistory(null)} />
      <RefuseDialog
        row={actions.refusing}
        busy={actions.busy}
        onRefuse={(row, reason) => void actions.refuse(row, reason)}
        onClose={() => actions.setRefusing(null)}
      />
    </div>
  );
}
