import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { DisasterType } from '@pm/shared';
import { fetchWarnings, type WarnRow } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { SelectField } from '../../ui/components/SelectField';
import { enumLabel, enumOptions } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { WarnDetailDialog } from './WarnDetailDialog';
import '../disaster.css';

const FILTERS = { type: '' };

/** SPEC §2 "disaster-release" (alarm release): the estate's warnings, live, and the way to release one. */
export default function DisasterReleasePage() {
  const { t } = useTranslation();
  const canView = usePermission('disasterwarn:view');
  const [changes, setChanges] = useState(0);
  // Released, revoked, answered, handled anywhere: the counts move.
  useLiveEvent((e) => {
    if (e.topic === 'alarms' && (e.kind === 'disasterWarning' || e.kind === 'warningUpdate')) setChanges((n) => n + 1);
  });
  const list = useListController<WarnRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ page, limit, filters: f }, signal) => fetchWarnings(page, limit, Number(f.type) || undefined, signal),
    reloadKey: changes,
  });
  const columns: ListColumn<WarnRow>[] = [
    { key: 'type', header: t('disaster.columns.type'), cell: (r) => enumLabel(t, DisasterType, r.type) },
    {
      key: 'content',
      header: t('disaster.columns.content'),
      cell: (r) => <span className="warn-content">{r.content}</span>,
    },
    { key: 'publishTime', header: t('disaster.columns.publishTime'), cell: (r) => formatTime(r.publishTime) },
    { key: 'publisher', header: t('disaster.columns.publisher'), cell: (r) => r.publisherName },
    { key: 'read', header: t('disaster.columns.read'), cell: (r) => `${r.read} / ${r.recipients}` },
    { key: 'replied', header: t('disaster.columns.replied'), cell: (r) => r.replied },
    {
      key: 'help',
      header: t('disaster.columns.help'),
      cell: (r) =>
        r.helpOpen > 0 ? (
          <Label color="red" size="small" data-testid="help-open">
            {r.helpOpen}
          </Label>
        ) : (
          r.askHelp
        ),
    },
    {
      key: 'status',
      header: t('disaster.columns.status'),
      cell: (r) =>
        r.revoked ? (
          <Label size="small">{t('disaster.warn.revoked')}</Label>
        ) : (
          <Label color="green" size="small">
            {t('disaster.warn.active')}
          </Label>
        ),
    },
    {
      key: 'actions',
      header: t('disaster.columns.actions'),
      cell: (r) =>
        canView && (
          <Button
            as={Link}
            to={list.linkTo({ open: r.id, tab: null })}
            size="mini"
            basic
            primary
            data-testid="open-warning"
          >
            {t('disaster.warn.details')}
          </Button>
        ),
    },
  ];
  return (
    <div className="disaster-screen">
      <div className="disaster-toolbar">
        <Button
          as={Link}
          to="/disaster-warning/add-disaster-warning"
          color="red"
          icon="bullhorn"
          content={t('disaster.warn.release')}
          data-testid="release-warning"
        />
      </div>
      <ListScreen
        list={list}
        data-testid="disaster-release"
        filters={
          <SelectField
            label={t('disaster.columns.type')}
            value={list.draft.type}
            onChange={(type) => list.setDraft({ type })}
            options={enumOptions(t, DisasterType)}
            emptyText={t('disaster.all')}
            data-testid="warn-type-filter"
          />
        }
        columns={columns}
        rowKey={(r) => r.id}
        rowTestId={(r) => `warn-row-${r.id}`}
        tableTestId="warn-table"
        emptyText={t('disaster.warn.empty')}
      >
        <WarnDetailDialog
          id={list.open}
          tab={list.tab}
          tabLink={(tab) => list.linkTo({ tab })}
          onClose={list.closeRecord}
          changes={changes}
          onChanged={list.reload}
        />
      </ListScreen>
    </div>
  );
}
