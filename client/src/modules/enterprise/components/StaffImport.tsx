import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { Button, Message, Progress, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { ApiError, fetchStaffTemplate, saveBlob, uploadStaffFile, type ImportRefusal } from '../../api';
import { session } from '../../auth/states/session';
import { formatKb as kb } from '../../buildings/utils/formatKb';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';

/** Problems shown in the dialog; the report has them all. */
const SHOWN = 100;

type Counts = { total: number; created: number; updated: number };
type State =
  | { step: 'choose' }
  | { step: 'uploading'; phase: 'check' | 'import'; sent: number; size: number }
  | { step: 'refused'; message: string; refusal: ImportRefusal }
  | { step: 'ready'; counts: Counts };

/** The refusal as CSV (opens in Excel; a BOM keeps Chinese readable): row, column, reason. */
function reportCsv(headers: string[], refusal: ImportRefusal): Blob {
  const quote = (v: string | number) => `"${String(v).replace(/"/g, '""')}"`;
  const lines = [headers, ...refusal.errors.map((e) => [e.row, e.column, e.reason])].map((r) => r.map(quote).join(','));
  return new Blob(['\ufeff' + lines.join('\r\n') + '\r\n'], { type: 'text/csv;charset=utf-8' });
}

/**
 * Import staff from Excel: download the template (in the person's language), choose a file; it
 * is uploaded and checked first (the preview: every bad row's problems by row, column and reason,
 * nothing written), and only a clean file can be imported (keyed by staff number: new rows added,
 * known ones updated). Upload progress in KB; the api's check and write follow in one answer.
 */
export function StaffImport({ onImported }: { onImported: () => void }) {
  const { t } = useTranslation();
  const { companyId } = useSnapshot(session);
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<State>({ step: 'choose' });
  const headers = [t('buildings.import.row'), t('buildings.import.column'), t('buildings.import.reason')];

  const close = () => {
    if (state.step === 'uploading') return;
    setOpen(false);
    setFile(null);
    setState({ step: 'choose' });
  };

  const upload = async (chosen: File, phase: 'check' | 'import') => {
    if (!companyId) return;
    setState({ step: 'uploading', phase, sent: 0, size: chosen.size });
    try {
      const counts = await uploadStaffFile(companyId, chosen, phase === 'check', (sent, size) =>
        setState((s) => (s.step === 'uploading' ? { ...s, sent, size } : s)),
      );
      if (phase === 'check') {
        setState({ step: 'ready', counts });
        return;
      }
      showToast('success', t('enterprise.import.done', counts));
      setOpen(false);
      setFile(null);
      setState({ step: 'choose' });
      onImported();
    } catch (e) {
      const refusal = e instanceof ApiError ? (e.data as ImportRefusal | null) : null;
      if (refusal?.errors) setState({ step: 'refused', message: (e as Error).message, refusal });
      else {
        setState({ step: 'choose' });
        showToast('error', (e as Error).message);
      }
    }
  };

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    if (!chosen.name.toLowerCase().endsWith('.xlsx')) {
      showToast('error', t('errors.fileFormat'));
      return;
    }
    setFile(chosen);
    void upload(chosen, 'check');
  };

  return (
    <>
      <Button
        basic
        icon="upload"
        content={t('enterprise.import.open')}
        onClick={() => setOpen(true)}
        data-testid="staff-import"
      />
      {open && (
        <DraggableDialog
          open
          onClose={close}
          size="large"
          title={t('enterprise.import.title')}
          initialFocus="#staff-import-file"
          data-testid="staff-import-dialog"
          actions={
            <>
              {state.step === 'refused' && (
                <Button
                  basic
                  icon="download"
                  content={t('buildings.import.downloadReport')}
                  onClick={() =>
                    saveBlob(
                      reportCsv(headers, state.refusal),
                      `${(file?.name ?? 'staff').replace(/\.xlsx$/i, '')}-errors.csv`,
                    )
                  }
                  data-testid="staff-import-report"
                />
              )}
              {state.step === 'ready' && file && (
                <Button
                  primary
                  icon="check"
                  content={t('enterprise.import.confirm', { count: state.counts.total })}
                  onClick={() => void upload(file, 'import')}
                  data-testid="staff-import-confirm"
                />
              )}
              <Button onClick={close} disabled={state.step === 'uploading'}>
                {t('common.close')}
              </Button>
            </>
          }
        >
          <p>{t('enterprise.import.help')}</p>
          <div className="enterprise-toolbar">
            <Button
              basic
              icon="download"
              content={t('common.downloadTemplate')}
              onClick={() =>
                void fetchStaffTemplate().then(
                  (blob) => saveBlob(blob, 'staff-template.xlsx'),
                  () => undefined,
                )
              }
              data-testid="staff-import-template"
            />
            <label htmlFor="staff-import-file">{t('enterprise.import.chooseFile')}</label>
            <input
              id="staff-import-file"
              className="enterprise-file-input"
              type="file"
              accept=".xlsx"
              disabled={state.step === 'uploading'}
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                e.target.value = '';
                choose(chosen);
              }}
              data-testid="staff-import-file"
            />
          </div>
          {state.step === 'uploading' && (
            <Progress
              value={state.sent}
              total={Math.max(state.size, 1)}
              indicating
              active={state.sent >= state.size}
              role="status"
              label={
                state.sent < state.size
                  ? t('buildings.import.uploadingKb', { sent: kb(state.sent), total: kb(state.size) })
                  : t(state.phase === 'check' ? 'buildings.import.checkingKb' : 'enterprise.import.writingKb', {
                      total: kb(state.size),
                    })
              }
              data-testid="staff-import-progress"
            />
          )}
          {state.step === 'ready' && (
            <Message positive role="status" data-testid="staff-import-ready">
              {t('enterprise.import.ready', state.counts)}
            </Message>
          )}
          {state.step === 'refused' && (
            <>
              <Message negative role="alert" data-testid="staff-import-refused">
                {state.message}
              </Message>
              <Table compact celled unstackable data-testid="staff-import-errors">
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
                    <Table.Row key={i} data-testid="staff-import-error">
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
    </>
  );
}
