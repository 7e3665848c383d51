import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { HouseStatus, ParkingSpaceType } from '@pm/shared';
import { fetchCarParks, fetchSpace, fetchSpaces, type CarParkRow, type SpaceInfo, type SpaceRow } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { SelectField } from '../../ui/components/SelectField';
import { enumLabel, enumOptions } from '../../ui/utils/enumLabels';
import { useResidentsReload } from '../hooks/useResidentsReload';
import { useSelection } from '../hooks/useSelection';
import { CarParksDialog } from './CarParksDialog';
import { HouseInfoDialog } from './HouseInfoDialog';
import { ExportButton } from './ExportButton';
import { HouseImport } from './HouseImport';
import { HouseStatusLabel } from './HouseStatusLabel';
import { SelectionBar } from './SelectionBar';
import { selectionColumn } from './SelectionColumn';
import { SpaceDialog } from './SpaceDialog';
import '../buildings.css';

/** The filters and their URL names: `?q=B2-01&park=1&type=2&state=1`. */
const FILTERS = { q: '', park: '', type: '', state: '' };

/**
 * Park space management (SPEC §2 `/building-management/park-space-management`, carpark:list):
 * spaces filtered by car park, type, status and keyword (SPEC §7 pageAdvancedSearch); car parks,
 * add/edit space, batch code downloads, the space info dialog.
 */
export default function SpacesPage() {
  const { t } = useTranslation();
  const canView = usePermission('carpark:view');
  const [carParks, setCarParks] = useState<CarParkRow[]>([]);
  const [dialog, setDialog] = useState<'parks' | { space: SpaceInfo | null } | null>(null);
  const [edits, setEdits] = useState(0);
  const selection = useSelection();
  const loadParks = useCallback(() => {
    fetchCarParks().then(setCarParks, () => undefined);
  }, []);
  useEffect(loadParks, [loadParks]);

  const list = useListController<SpaceRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ page, limit, filters: f }, signal) =>
      fetchSpaces(
        {
          page,
          limit,
          keyword: f.q || undefined,
          carParkId: Number(f.park) || undefined,
          type: Number(f.type) || undefined,
          houseStatus: Number(f.state) || undefined,
        },
        signal,
      ),
  });
  useResidentsReload(list.reload);
  const changed = () => {
    loadParks();
    list.reload();
  };
  const rows = list.data?.list ?? [];

  const columns: ListColumn<SpaceRow>[] = [
    selectionColumn<SpaceRow>(
      t,
      selection,
      (r) => r.carSpaceId,
      (r) => r.carparkCode,
    ),
    { key: 'park', header: t('buildings.fields.carPark'), cell: (r) => r.carParkName },
    { key: 'code', header: t('buildings.fields.carparkCode'), cell: (r) => r.carparkCode },
    { key: 'type', header: t('buildings.fields.type'), cell: (r) => enumLabel(t, ParkingSpaceType, r.type) },
    { key: 'plate', header: t('buildings.fields.plate'), cell: (r) => r.plate ?? '–' },
    { key: 'status', header: t('buildings.fields.status'), cell: (r) => <HouseStatusLabel status={r.houseStatus} /> },
    { key: 'owner', header: t('buildings.fields.owner'), cell: (r) => r.ownerName ?? '–' },
    { key: 'invite', header: t('buildings.fields.invitePerson'), cell: (r) => r.invitePerson },
    {
      key: 'actions',
      header: t('buildings.actions.details'),
      cell: (r) =>
        canView && (
          <Button
            as={Link}
            to={list.linkTo({ open: r.carSpaceId, tab: null })}
            size="mini"
            basic
            primary
            aria-label={`${t('buildings.actions.details')} ${r.carparkCode}`}
            data-testid="open-detail"
          >
            {t('buildings.actions.details')}
          </Button>
        ),
    },
  ];

  const filters = (
    <>
      <Form.Input
        id="spaces-keyword"
        label={t('buildings.filters.keywordLabel')}
        icon="search"
        iconPosition="left"
        placeholder={t('buildings.filters.keyword')}
        value={list.draft.q}
        onChange={(_, d) => list.setDraft({ q: d.value })}
        data-testid="keyword"
      />
      <SelectField
        label={t('buildings.fields.carPark')}
        value={list.draft.park}
        onChange={(park) => list.setDraft({ park })}
        options={carParks.map((c) => ({ value: c.carParkId, text: c.name }))}
        emptyText={t('buildings.filters.all')}
        data-testid="park-filter"
      />
      <SelectField
        label={t('buildings.fields.type')}
        value={list.draft.type}
        onChange={(type) => list.setDraft({ type })}
        options={enumOptions(t, ParkingSpaceType)}
        emptyText={t('buildings.filters.all')}
        data-testid="type-filter"
      />
      <SelectField
        label={t('buildings.fields.status')}
        value={list.draft.state}
        onChange={(state) => list.setDraft({ state })}
        options={enumOptions(t, HouseStatus)}
        emptyText={t('buildings.filters.all')}
        data-testid="status-filter"
      />
    </>
  );

  return (
    <>
      <div className="buildings-toolbar">
        {canView && (
          <>
            <Button
              primary
              icon="plus"
              content={t('buildings.actions.addSpace')}
              onClick={() => setDialog({ space: null })}
              data-testid="add-space"
            />
            <Button
              basic
              icon="car"
              content={t('buildings.actions.manageCarParks')}
              onClick={() => setDialog('parks')}
              data-testid="manage-carparks"
            />
          </>
        )}
        {canView && <HouseImport kind="carpark" onImported={changed} />}
        <ExportButton
          kind="carpark"
          filters={{
            keyword: list.filters.q || undefined,
            carParkId: Number(list.filters.park) || undefined,
            type: Number(list.filters.type) || undefined,
            houseStatus: Number(list.filters.state) || undefined,
          }}
        />
        {canView && <SelectionBar kind="carpark" selection={selection} pageIds={rows.map((r) => r.carSpaceId)} />}
      </div>
      <ListScreen
        list={list}
        data-testid="spaces-screen"
        filters={filters}
        columns={columns}
        rowKey={(r) => r.carSpaceId}
        rowTestId={(r) => `space-row-${r.carparkCode}`}
        tableTestId="spaces-table"
        emptyText={t('buildings.empty.spaces')}
      >
        <HouseInfoDialog<SpaceInfo>
          kind="carpark"
          id={list.open}
          title={t('buildings.titles.spaceInfo')}
          canEdit={canView}
          load={fetchSpace}
          idOf={(s) => s.carSpaceId}
          nameOf={(s) => s.carparkCode}
          reloadKey={edits}
          fields={(s) => [
            [t('buildings.fields.carPark'), s.carParkName],
            [t('buildings.fields.carparkCode'), s.carparkCode],
            [t('buildings.fields.type'), enumLabel(t, ParkingSpaceType, s.type)],
            [t('buildings.fields.plate'), s.plate],
            [t('buildings.fields.status'), <HouseStatusLabel key="s" status={s.houseStatus} />],
            [t('buildings.fields.owner'), s.owner?.name ?? null],
            [t('buildings.fields.invitePerson'), s.invitePerson],
          ]}
          onEdit={(space) => setDialog({ space })}
          onClose={list.closeRecord}
          onChanged={changed}
        />
      </ListScreen>
      {dialog && dialog !== 'parks' && (
        <SpaceDialog
          space={dialog.space}
          carParks={carParks}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            setEdits((n) => n + 1);
            changed();
          }}
        />
      )}
      <CarParksDialog
        open={dialog === 'parks'}
        carParks={carParks}
        onClose={() => setDialog(null)}
        onChanged={changed}
      />
    </>
  );
}
