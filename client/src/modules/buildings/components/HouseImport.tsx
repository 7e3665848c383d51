import { useEffect, useState } from 'react';
import { Button, Message, Progress, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import {
  ApiError,
  fetchBuildLog,
  fetchImportTemplate,
  importHouses,
  saveBlob,
  type BuildLogRow,
  type HouseKindName,
  type ImportRefusal,
} from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { ImportDropdown } from '../../ui/components/ImportDropdown';
import { showToast } from '../../ui/states/toasts';
import { formatTime } from '../../ui/utils/formatTime';
import { formatKb as kb } from '../utils/formatKb';

const FILE = { unit: 'units', carpark: 'parking-spaces', shop: 'shops' } as const;
const KIND = { unit: 1, carpark: 2, shop: 3 } as const;
/** Problems shown in the dialog; the report has them all. */
const SHOWN = 20;

type State =
  | { step: 'uploading'; sent: number; size: number; fileName: string }
  | { step: 'refused'; fileName: string; message: string; refusal: ImportRefusal }
  | null;

/** The error report as CSV (opens in Excel; a BOM keeps Chinese readable): row, column, reason. */
function reportCsv(headers: string[], refusal: ImportRefusal): Blob {
  const quote = (v: string | number) => `"${String(v).replace(/"/g, '""')}"`;
  const lines = [headers, ...refusal.errors.map((e) => [e.row, e.column, e.reason])].map((r) => r.map(quote).join(','));
  return new Blob(['\ufeff' + lines.join('\r\n') + '\r\n'], { type: 'text/csv;charset=utf-8' });
}

/**
 * The import dropdown of SPEC §2 (download the template, import a file) with upload progress,
 * the refusal report (row, column, reason; nothing was written) and the import log.
 */
export function HouseImport({ kind, onImported }: { kind: HouseKindName; onImported: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>(null);
  const [log, setLog] = useState<BuildLogRow[] | null>(null);

  const start = async (file: File) => {
    setState({ step: 'uploading', sent: 0, size: file.size, fileName: file.name });
    try {
      const done = await importHouses(kind, file, (sent, size) =>
        setState((s) => (s?.step === 'uploading' ? { ...s, sent, size } : s)),
      );
      setState(null);
      showToast('success', t('buildings.import.done', { count: done.written }));
      onImported();
    } catch (e) {
      const refusal = e instanceof ApiError ? (e.data as ImportRefusal | null) : null;
      if (refusal?.errors) setState({ step: 'refused', fileName: file.name, message: (e as Error).message, refusal });
      else {
        setState(null);
        showToast('error', (e as Error).message);
      }
    }
  };

  const headers = [t('buildings.import.row'), t('buildings.import.column'), t('buildings.import.reason')];
  return (
    <>
      <ImportDropdown
        onDownloadTemplate={() =>
          void fetchImportTemplate(kind).then(
            (blob) => saveBlob(blob, `${FILE[kind]}-template.xlsx`),
            () => undefined,
          )
        }
        onImport={(file) => void start(file)}
        accept={['.xlsx']}
      />
      <Button
        basic
        icon="history"
        content={t('buildings.import.log')}
        onClick={() => setLog([])}
        data-testid="import-log"
      />
      {state && (
        <DraggableDialog
          open
          title={state.step === 'refused' ? t('buildings.import.reportTitle') : state.fileName}
          onClose={() => state.step === 'refused' && setState(null)}
          data-testid="import-dialog"
          actions={
            state.step === 'refused' && (
              <>
                <Button
                  primary
                  icon="download"
                  content={t('buildings.import.downloadReport')}
                  onClick={() =>
                    saveBlob(reportCsv(headers, state.refusal), `${state.fileName.replace(/\.xlsx$/i, '')}-errors.csv`)
                  }
                  data-testid="download-report"
                />
                <Button onClick={() => setState(null)}>{t('buildings.actions.close')}</Button>
              </>
            )
          }
        >
          {state.step === 'uploading' ? (
            <Progress
              value={state.sent}
              total={Math.max(state.size, 1)}
              indicating
              active={state.sent >= state.size}
              role="status"
              label={
                state.sent < state.size
                  ? t('buildings.import.uploadingKb', { sent: kb(state.sent), total: kb(state.size) })
                  : t('buildings.import.checkingKb', { total: kb(state.size) })
              }
              data-testid="import-progress"
            />
          ) : (
            <>
              <Message negative role="alert" data-testid="import-refused">
                {state.message}
              </Message>
              <Table compact celled unstackable data-testid="import-errors">
                <Table.Header>
                  <Table.Row>
                    {headers.map((h) => (
                      <Table.HeaderCell key={h} scope="col">
                        {h}
                      </Table.HeaderCell>
                    ))}
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {state.refusal.errors.slice(0, SHOWN).map((e, i) => (
                    <Table.Row key={i}>
                      <Table.Cell>{e.row}</Table.Cell>
                      <Table.Cell>{e.column}</Table.Cell>
                      <Table.Cell>{e.reason}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table>
              {state.refusal.errors.length > SHOWN && (
                <p>{t('buildings.import.more', { count: state.refusal.errors.length - SHOWN })}</p>
              )}
            </>
          )}
        </DraggableDialog>
      )}
      {log && <ImportLog kind={KIND[kind]} onClose={() => setLog(null)} />}
    </>
  );
}

/** The latest imports of this kind (SPEC §7 /build-log/v1): who, when, what, counts. */
function ImportLog({ kind, onClose }: { kind: 1 | 2 | 3; onClose: () => void }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<BuildLogRow[] | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetchBuildLog(kind, abort.signal).then(
      (page) => setRows(page.list),
      () => undefined,
    );
    return () => abort.abort();
  }, [kind]);
  return (
    <DraggableDialog
      open
      title={t('buildings.import.log')}
      onClose={onClose}
      size="large"
      data-testid="import-log-dialog"
      actions={<Button onClick={onClose}>{t('buildings.actions.close')}</Button>}
    >
      <Table compact celled unstackable>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell scope="col">{t('buildings.import.when')}</Table.HeaderCell>
            <Table.HeaderCell scope="col">{t('buildings.import.who')}</Table.HeaderCell>
            <Table.HeaderCell scope="col">{t('buildings.import.what')}</Table.HeaderCell>
            <Table.HeaderCell scope="col">{t('buildings.import.counts')}</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {(rows ?? []).map((r) => (
            <Table.Row key={r.buildLogId} data-testid="import-log-row">
              <Table.Cell>{formatTime(r.createdAt)}</Table.Cell>
              <Table.Cell>{r.personName ?? '–'}</Table.Cell>
              <Table.Cell>
                {t('buildings.import.actionImport')} · {t(`buildings.import.kind${r.kind}`)} · {r.fileName ?? ''}
              </Table.Cell>
              <Table.Cell>
                {r.written} / {r.failed}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
    </DraggableDialog>
  );
}
