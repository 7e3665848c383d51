import { useCallback, useEffect, useState, type ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { Button, Form, type SemanticICONS } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { HouseStatus } from '@pm/shared';
import type { HouseKindName } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useListController, type ListResult } from '../../list/hooks/useListController';
import { SelectField } from '../../ui/components/SelectField';
import { enumOptions } from '../../ui/utils/enumLabels';
import { useResidentsReload } from '../hooks/useResidentsReload';
import { useSelection } from '../hooks/useSelection';
import { ExportButton } from './ExportButton';
import { HouseImport } from './HouseImport';
import { SelectionBar } from './SelectionBar';
import { selectionColumn } from './SelectionColumn';
import '../buildings.css';

/** Every house list filters by keyword (`q`) and status (`state`); a kind adds its own. */
type HouseFilters = { q: string; state: string } & Record<string, string>;

/** A select filter of a kind: its URL name, label, choices, and the filters it empties. */
export interface HouseSelectFilter<F> {
  key: keyof F & string;
  label: string;
  options: { value: string | number; text: string }[];
  testId: string;
  resets?: (keyof F & string)[];
}

/**
 * What differs between the house lists (units, park spaces, merchants): everything a screen
 * says, as data. `HouseListPage` is the one screen; a new kind of house is one such object
 * (`utils/houseLists.tsx`) and a line in the module's `index.ts`.
 *
 * `Lookups` are what the kind's filters and dialogs choose from (blocks, car parks), loaded on
 * open and after every change.
 */
export interface HouseList<Row, Info, F extends HouseFilters, Lookups> {
  /** The kind's path in SPEC §7 (`/base/<kind>/…`): import, export, batch downloads. */
  kind: HouseKindName;
  /** Adding, editing, importing and the details need this (SPEC §6 `…:view`). */
  editPermission: string;
  /** The filters with their empty values; the keys are the URL names (`?q=12C&block=3`). */
  filters: F;
  /** The api's filter fields of the applied filters (the list and the export send the same). */
  query: (f: F) => object;
  fetchList: (page: number, limit: number, f: F, signal: AbortSignal) => Promise<ListResult<Row>>;
  loadLookups: () => Promise<Lookups>;
  emptyLookups: Lookups;
  idOf: (row: Row) => number;
  /** The row's name in labels ("Select 1 12C", "Details B2-01"). */
  nameOf: (row: Row) => string;
  /** The kind's own columns, between the checkbox and the details button. */
  columns: (t: TFunction) => ListColumn<Row>[];
  /** The kind's own select filters, between the keyword and the status. */
  selectFilters: (t: TFunction, lookups: Lookups, draft: F) => HouseSelectFilter<F>[];
  testIds: { screen: string; table: string; row: (row: Row) => string; keyword: string };
  /** Translation key of the empty list's text. */
  emptyText: string;
  /** The add button; it opens `Editor` with no record. */
  add: { label: string; testId: string };
  /** The button of the kind's manager dialog (blocks and floors, car parks), when it has one. */
  manage?: { label: string; icon: SemanticICONS; testId: string };
  /** The add / edit dialog of one record (`record` null: a new one). */
  Editor: ComponentType<{ record: Info | null; lookups: Lookups; onClose: () => void; onSaved: () => void }>;
  Manager?: ComponentType<{ open: boolean; lookups: Lookups; onClose: () => void; onChanged: () => void }>;
  /** The info dialog of the open record (`?open=<id>`). */
  InfoDialog: ComponentType<{
    id: number | null;
    canEdit: boolean;
    reloadKey: number;
    onEdit: (info: Info) => void;
    onClose: () => void;
    onChanged: () => void;
  }>;
}

/** Keeps each kind's types together (the object literal alone would widen them). */
export const defineHouseList = <Row, Info, F extends HouseFilters, Lookups>(k: HouseList<Row, Info, F, Lookups>) => k;

/**
 * A house list of Building management (SPEC §2): the filters, the list with its checkbox and
 * details columns, add / manage / import / export / batch code downloads, the info dialog and
 * the add / edit dialogs, all as `kind` says. The list follows residents joining and leaving live.
 */
export function HouseListPage<Row, Info, F extends HouseFilters, Lookups>({
  kind,
}: {
  kind: HouseList<Row, Info, F, Lookups>;
}) {
  const { t } = useTranslation();
  const canEdit = usePermission(kind.editPermission);
  const [lookups, setLookups] = useState<Lookups>(kind.emptyLookups);
  /** The open dialog: the manager, or the editor with its record (null: a new one). */
  const [dialog, setDialog] = useState<'manage' | { record: Info | null } | null>(null);
  const [edits, setEdits] = useState(0);
  const selection = useSelection();
  const { loadLookups } = kind;
  const reloadLookups = useCallback(() => {
    loadLookups().then(setLookups, () => undefined);
  }, [loadLookups]);
  useEffect(reloadLookups, [reloadLookups]);

  const list = useListController<Row, F>({
    filters: kind.filters,
    fetchList: ({ page, limit, filters }, signal) => kind.fetchList(page, limit, filters, signal),
  });
  useResidentsReload(list.reload);
  const changed = () => {
    reloadLookups();
    list.reload();
  };
  const rows = list.data?.list ?? [];

  const columns: ListColumn<Row>[] = [
    selectionColumn<Row>(t, selection, kind.idOf, kind.nameOf),
    ...kind.columns(t),
    {
      key: 'actions',
      header: t('buildings.actions.details'),
      cell: (r) =>
        canEdit && (
          <Button
            as={Link}
            to={list.linkTo({ open: kind.idOf(r), tab: null })}
            size="mini"
            basic
            primary
            aria-label={`${t('buildings.actions.details')} ${kind.nameOf(r)}`}
            data-testid="open-detail"
          >
            {t('buildings.actions.details')}
          </Button>
        ),
    },
  ];

  const selectFilter = (f: HouseSelectFilter<F>) => (
    <SelectField
      key={f.key}
      label={f.label}
      value={list.draft[f.key]}
      onChange={(value) =>
        list.setDraft({ [f.key]: value, ...Object.fromEntries((f.resets ?? []).map((r) => [r, ''])) } as Partial<F>)
      }
      options={f.options}
      emptyText={t('buildings.filters.all')}
      data-testid={f.testId}
    />
  );
  const filters = (
    <>
      <Form.Input
        id={kind.testIds.keyword}
        label={t('buildings.filters.keywordLabel')}
        icon="search"
        iconPosition="left"
        placeholder={t('buildings.filters.keyword')}
        value={list.draft.q}
        onChange={(_, d) => list.setDraft({ q: String(d.value) } as Partial<F>)}
        data-testid="keyword"
      />
      {kind.selectFilters(t, lookups, list.draft).map(selectFilter)}
      {selectFilter({
        key: 'state',
        label: t('buildings.fields.status'),
        options: enumOptions(t, HouseStatus),
        testId: 'status-filter',
      })}
    </>
  );

  const { Editor, Manager, InfoDialog } = kind;
  return (
    <>
      <div className="buildings-toolbar">
        {canEdit && (
          <>
            <Button
              primary
              icon="plus"
              content={t(kind.add.label)}
              onClick={() => setDialog({ record: null })}
              data-testid={kind.add.testId}
            />
            {kind.manage && (
              <Button
                basic
                icon={kind.manage.icon}
                content={t(kind.manage.label)}
                onClick={() => setDialog('manage')}
                data-testid={kind.manage.testId}
              />
            )}
          </>
        )}
        {canEdit && <HouseImport kind={kind.kind} onImported={changed} />}
        <ExportButton kind={kind.kind} filters={kind.query(list.filters)} />
        {canEdit && <SelectionBar kind={kind.kind} selection={selection} pageIds={rows.map(kind.idOf)} />}
      </div>
      <ListScreen
        list={list}
        data-testid={kind.testIds.screen}
        filters={filters}
        columns={columns}
        rowKey={kind.idOf}
        rowTestId={kind.testIds.row}
        tableTestId={kind.testIds.table}
        emptyText={t(kind.emptyText)}
      >
        <InfoDialog
          id={list.open}
          canEdit={canEdit}
          reloadKey={edits}
          onEdit={(record) => setDialog({ record })}
          onClose={list.closeRecord}
          onChanged={changed}
        />
      </ListScreen>
      {dialog && dialog !== 'manage' && (
        <Editor
          record={dialog.record}
          lookups={lookups}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            setEdits((n) => n + 1);
            changed();
          }}
        />
      )}
      {Manager && (
        <Manager open={dialog === 'manage'} lookups={lookups} onClose={() => setDialog(null)} onChanged={changed} />
      )}
    </>
  );
}
