import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Form, Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { DisasterType } from '@pm/shared';
import { fetchDeclarations, handleDeclaration, type DeclarationRow } from '../../api';
import { ListScreen, type ListColumn, type StatusTab } from '../../list/components/ListScreen';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { useListController } from '../../list/hooks/useListController';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { PictureList } from '../../work-orders/components/WorkMedia';
import '../disaster.css';

const FILTERS = {};

/**
 * SPEC §2 disaster-declaration: residents' reports of damage or danger (kind, disaster type, what
 * happened, where, pictures, from which house); staff handle them with a note. Live: a new
 * declaration or one handled on another console reloads the list.
 */
export default function DeclarationPage() {
  const { t } = useTranslation();
  const [changes, setChanges] = useState(0);
  useLiveEvent((e) => {
    if (e.topic === 'alarms' && (e.kind === 'declaration' || e.kind === 'declarationUpdate')) setChanges((n) => n + 1);
  });
  const list = useListController<DeclarationRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ status, page, limit }, signal) => fetchDeclarations(page, limit, status || undefined, signal),
    reloadKey: changes,
  });
  const statusTabs: StatusTab[] = [
    { value: 0, label: t('disaster.all') },
    { value: 1, label: t('disaster.declaration.status.s1'), highlight: true },
    { value: 2, label: t('disaster.declaration.status.s2') },
  ];
  const columns: ListColumn<DeclarationRow>[] = [
    { key: 'kind', header: t('disaster.declaration.kind'), cell: (r) => t(`disaster.declaration.kinds.k${r.kind}`) },
    { key: 'type', header: t('disaster.columns.type'), cell: (r) => enumLabel(t, DisasterType, r.type) },
    {
      key: 'content',
      header: t('disaster.columns.content'),
      cell: (r) => <span className="warn-content">{r.content}</span>,
    },
    { key: 'person', header: t('disaster.columns.name'), cell: (r) => r.personName },
    { key: 'house', header: t('disaster.columns.house'), cell: (r) => unitDisplay(r) },
    { key: 'time', header: t('disaster.columns.time'), cell: (r) => formatTime(r.createdAt) },
    {
      key: 'status',
      header: t('disaster.columns.status'),
      cell: (r) => (
        <Label size="small" color={r.status === 1 ? 'orange' : 'green'}>
          {t(`disaster.declaration.status.s${r.status}`)}
        </Label>
      ),
    },
    {
      key: 'actions',
      header: t('disaster.columns.actions'),
      cell: (r) => (
        <Button as={Link} to={list.linkTo({ open: r.id })} size="mini" basic primary data-testid="open-declaration">
          {t('disaster.warn.details')}
        </Button>
      ),
    },
  ];
  const open = list.data?.list.find((r) => r.id === list.open) ?? null;
  return (
    <ListScreen
      list={list}
      data-testid="disaster-declaration"
      statusTabs={statusTabs}
      columns={columns}
      rowKey={(r) => r.id}
      tableTestId="declaration-table"
      emptyText={t('disaster.declaration.empty')}
    >
      <DeclarationDialog row={open} onClose={list.closeRecord} onChanged={list.reload} />
    </ListScreen>
  );
}

function DeclarationDialog({
  row,
  onClose,
  onChanged,
}: {
  row: DeclarationRow | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const handle = async () => {
    if (!row) return;
    try {
      await handleDeclaration(row.id, note.trim());
      showToast('success', t('disaster.declaration.handledToast'));
      setNote('');
      onChanged();
    } catch {
      // The error toast says why.
    }
  };
  const line = (label: string, value: string | null | undefined, testId?: string) => (
    <div className="sos-field">
      <span className="sos-field-label">{label}</span>
      <span className="sos-field-value" data-testid={testId}>
        {value || '–'}
      </span>
    </div>
  );
  return (
    <DraggableDialog
      open={row !== null}
      title={t('disaster.declaration.title')}
      onClose={onClose}
      data-testid="declaration-dialog"
    >
      {row && (
        <>
          {line(t('disaster.declaration.kind'), t(`disaster.declaration.kinds.k${row.kind}`))}
          {line(t('disaster.columns.type'), enumLabel(t, DisasterType, row.type))}
          {line(t('disaster.columns.content'), row.content)}
          {line(t('disaster.columns.name'), row.personName)}
          {line(t('disaster.columns.phone'), row.phone)}
          {line(t('disaster.columns.house'), unitDisplay(row))}
          {line(t('disaster.declaration.position'), row.position)}
          {line(t('disaster.columns.time'), formatTime(row.createdAt))}
          <div className="sos-field">
            <span className="sos-field-label">{t('disaster.declaration.pictures')}</span>
            <span className="sos-field-value" data-testid="declaration-pictures">
              <PictureList joined={row.img} />
            </span>
          </div>
          {row.status === 2 ? (
            line(
              t('disaster.columns.handled'),
              `${row.handledBy ?? ''} · ${formatTime(row.handledAt ?? '')} · ${row.handledNote ?? ''}`,
              'declaration-handled',
            )
          ) : (
            <Form onSubmit={() => void handle()} className="sos-close-form">
              <Form.TextArea
                id="declaration-note"
                label={t('disaster.help.note')}
                value={note}
                rows={2}
                maxLength={500}
                onChange={(_, d) => setNote(String(d.value ?? ''))}
              />
              <Button type="submit" primary disabled={!note.trim()} data-testid="declaration-handle">
                {t('disaster.help.markHandled')}
              </Button>
            </Form>
          )}
        </>
      )}
    </DraggableDialog>
  );
}
