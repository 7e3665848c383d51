import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { HouseStatus } from '@pm/shared';
import { fetchBlocks, fetchUnits, type BlockRow, type UnitRow } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { SelectField } from '../../ui/components/SelectField';
import { enumOptions } from '../../ui/utils/enumLabels';
import { useResidentsReload } from '../hooks/useResidentsReload';
import { useSelection } from '../hooks/useSelection';
import { BlockDialog } from './BlockDialog';
import { BlocksDialog } from './BlocksDialog';
import { ExportButton } from './ExportButton';
import { HouseImport } from './HouseImport';
import { HouseStatusLabel } from './HouseStatusLabel';
import { SelectionBar } from './SelectionBar';
import { selectionColumn } from './SelectionColumn';
import { UnitInfoDialog } from './UnitInfoDialog';
import '../buildings.css';

/** The filters and their URL names: `?q=12C&block=3&floor=40&status=2`. */
const FILTERS = { q: '', block: '', floor: '', state: '' };

/**
 * Unit management (SPEC §2 `/building-management/unit-management`, unit:list): units of every
 * block, filtered by block, floor, status (SPEC §4) and keyword; add a block with its floors and
 * units, manage blocks and floors, batch QR / invite-code downloads, the unit info dialog.
 */
export default function UnitsPage() {
  const { t } = useTranslation();
  const canView = usePermission('unit:view');
  const [blocks, setBlocks] = useState<BlockRow[]>([]);
  const [dialog, setDialog] = useState<'add' | 'blocks' | null>(null);
  const selection = useSelection();
  const loadBlocks = useCallback(() => {
    fetchBlocks().then(setBlocks, () => undefined);
  }, []);
  useEffect(loadBlocks, [loadBlocks]);

  const list = useListController<UnitRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ page, limit, filters: f }, signal) =>
      fetchUnits(
        {
          page,
          limit,
          keyword: f.q || undefined,
          blockId: Number(f.block) || undefined,
          floorId: Number(f.floor) || undefined,
          houseStatus: Number(f.state) || undefined,
        },
        signal,
      ),
  });
  useResidentsReload(list.reload);
  const changed = () => {
    loadBlocks();
    list.reload();
  };
  const rows = list.data?.list ?? [];
  const floors = blocks.find((b) => String(b.blockId) === list.draft.block)?.floors ?? [];

  const columns: ListColumn<UnitRow>[] = [
    selectionColumn<UnitRow>(
      t,
      selection,
      (r) => r.unitId,
      (r) => `${r.buildName} ${r.name}`,
    ),
    { key: 'block', header: t('buildings.fields.block'), cell: (r) => r.buildName },
    { key: 'floor', header: t('buildings.fields.floor'), cell: (r) => r.floorName },
    { key: 'unit', header: t('buildings.fields.unit'), cell: (r) => r.name },
    {
      key: 'rooms',
      header: `${t('buildings.fields.room')}/${t('buildings.fields.livingRoom')}/${t('buildings.fields.restroom')}`,
      cell: (r) => `${r.room}/${r.livingRoom}/${r.restroom}`,
    },
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
            to={list.linkTo({ open: r.unitId, tab: null })}
            size="mini"
            basic
            primary
            aria-label={`${t('buildings.actions.details')} ${r.buildName} ${r.name}`}
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
        id="units-keyword"
        label={t('buildings.filters.keywordLabel')}
        icon="search"
        iconPosition="left"
        placeholder={t('buildings.filters.keyword')}
        value={list.draft.q}
        onChange={(_, d) => list.setDraft({ q: d.value })}
        data-testid="keyword"
      />
      <SelectField
        label={t('buildings.fields.block')}
        value={list.draft.block}
        onChange={(block) => list.setDraft({ block, floor: '' })}
        options={blocks.map((b) => ({ value: b.blockId, text: b.name }))}
        emptyText={t('buildings.filters.all')}
        data-testid="block-filter"
      />
      <SelectField
        label={t('buildings.fields.floor')}
        value={list.draft.floor}
        onChange={(floor) => list.setDraft({ floor })}
        options={floors.map((f) => ({ value: f.floorId, text: f.name }))}
        emptyText={t('buildings.filters.all')}
        data-testid="floor-filter"
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
              content={t('buildings.actions.addBlock')}
              onClick={() => setDialog('add')}
              data-testid="add-block"
            />
            <Button
              basic
              icon="building"
              content={t('buildings.actions.manageBlocks')}
              onClick={() => setDialog('blocks')}
              data-testid="manage-blocks"
            />
          </>
        )}
        {canView && <HouseImport kind="unit" onImported={changed} />}
        <ExportButton
          kind="unit"
          filters={{
            keyword: list.filters.q || undefined,
            blockId: Number(list.filters.block) || undefined,
            floorId: Number(list.filters.floor) || undefined,
            houseStatus: Number(list.filters.state) || undefined,
          }}
        />
        {canView && <SelectionBar kind="unit" selection={selection} pageIds={rows.map((r) => r.unitId)} />}
      </div>
      <ListScreen
        list={list}
        data-testid="units-screen"
        filters={filters}
        columns={columns}
        rowKey={(r) => r.unitId}
        rowTestId={(r) => `unit-row-${r.name}`}
        tableTestId="units-table"
        emptyText={t('buildings.empty.units')}
      >
        <UnitInfoDialog id={list.open} canEdit={canView} onClose={list.closeRecord} onChanged={changed} />
      </ListScreen>
      {dialog === 'add' && (
        <BlockDialog
          block={null}
          open
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            changed();
          }}
        />
      )}
      <BlocksDialog open={dialog === 'blocks'} blocks={blocks} onClose={() => setDialog(null)} onChanged={changed} />
    </>
  );
}
