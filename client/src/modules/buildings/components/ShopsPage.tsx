import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { HouseStatus } from '@pm/shared';
import { fetchShop, fetchShops, type ShopInfo, type ShopRow } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { SelectField } from '../../ui/components/SelectField';
import { enumOptions } from '../../ui/utils/enumLabels';
import { useResidentsReload } from '../hooks/useResidentsReload';
import { useSelection } from '../hooks/useSelection';
import { HouseInfoDialog } from './HouseInfoDialog';
import { ExportButton } from './ExportButton';
import { HouseImport } from './HouseImport';
import { HouseStatusLabel } from './HouseStatusLabel';
import { SelectionBar } from './SelectionBar';
import { selectionColumn } from './SelectionColumn';
import { ShopDialog } from './ShopDialog';
import '../buildings.css';

/** The filters and their URL names: `?q=bakery&state=2`. */
const FILTERS = { q: '', state: '' };

/**
 * Merchant management (SPEC §2 `/building-management/merchant-management`, shop:list): shops
 * filtered by status and keyword (code, name, person); add/edit, batch code downloads, info.
 */
export default function ShopsPage() {
  const { t } = useTranslation();
  const canView = usePermission('shop:view');
  const [dialog, setDialog] = useState<{ shop: ShopInfo | null } | null>(null);
  const [edits, setEdits] = useState(0);
  const selection = useSelection();
  const list = useListController<ShopRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ page, limit, filters: f }, signal) =>
      fetchShops({ page, limit, keyword: f.q || undefined, houseStatus: Number(f.state) || undefined }, signal),
  });
  useResidentsReload(list.reload);
  const rows = list.data?.list ?? [];

  const columns: ListColumn<ShopRow>[] = [
    selectionColumn<ShopRow>(
      t,
      selection,
      (r) => r.shopId,
      (r) => r.shopCode,
    ),
    { key: 'code', header: t('buildings.fields.shopCode'), cell: (r) => r.shopCode },
    { key: 'name', header: t('buildings.fields.shopName'), cell: (r) => r.name ?? '–' },
    { key: 'person', header: t('buildings.fields.person'), cell: (r) => r.ownerName ?? '–' },
    { key: 'status', header: t('buildings.fields.status'), cell: (r) => <HouseStatusLabel status={r.houseStatus} /> },
    { key: 'invite', header: t('buildings.fields.invitePerson'), cell: (r) => r.invitePerson },
    {
      key: 'actions',
      header: t('buildings.actions.details'),
      cell: (r) =>
        canView && (
          <Button
            as={Link}
            to={list.linkTo({ open: r.shopId, tab: null })}
            size="mini"
            basic
            primary
            aria-label={`${t('buildings.actions.details')} ${r.shopCode}`}
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
        id="shops-keyword"
        label={t('buildings.filters.keywordLabel')}
        icon="search"
        iconPosition="left"
        placeholder={t('buildings.filters.keyword')}
        value={list.draft.q}
        onChange={(_, d) => list.setDraft({ q: d.value })}
        data-testid="keyword"
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
          <Button
            primary
            icon="plus"
            content={t('buildings.actions.addShop')}
            onClick={() => setDialog({ shop: null })}
            data-testid="add-shop"
          />
        )}
        {canView && <HouseImport kind="shop" onImported={list.reload} />}
        <ExportButton
          kind="shop"
          filters={{ keyword: list.filters.q || undefined, houseStatus: Number(list.filters.state) || undefined }}
        />
        {canView && <SelectionBar kind="shop" selection={selection} pageIds={rows.map((r) => r.shopId)} />}
      </div>
      <ListScreen
        list={list}
        data-testid="shops-screen"
        filters={filters}
        columns={columns}
        rowKey={(r) => r.shopId}
        rowTestId={(r) => `shop-row-${r.shopCode}`}
        tableTestId="shops-table"
        emptyText={t('buildings.empty.shops')}
      >
        <HouseInfoDialog<ShopInfo>
          kind="shop"
          id={list.open}
          title={t('buildings.titles.shopInfo')}
          canEdit={canView}
          load={fetchShop}
          idOf={(s) => s.shopId}
          nameOf={(s) => s.shopCode}
          reloadKey={edits}
          fields={(s) => [
            [t('buildings.fields.shopCode'), s.shopCode],
            [t('buildings.fields.shopName'), s.name],
            [t('buildings.fields.person'), s.owner?.name ?? null],
            [t('buildings.fields.status'), <HouseStatusLabel key="s" status={s.houseStatus} />],
            [t('buildings.fields.invitePerson'), s.invitePerson],
          ]}
          onEdit={(shop) => setDialog({ shop })}
          onClose={list.closeRecord}
          onChanged={list.reload}
        />
      </ListScreen>
      {dialog && (
        <ShopDialog
          shop={dialog.shop}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            setEdits((n) => n + 1);
            list.reload();
          }}
        />
      )}
    </>
  );
}
