import { useState } from 'react';
import { Button, Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { exportFile, saveBlob } from '../../api';
import { showToast } from '../../ui/states/toasts';

/**
 * Exports to Excel in the background (issue 32): the person keeps working while the file streams
 * in, told its rows and the KB received so far (the house lists' export, `exportFile`).
 */
export function CheckinExportButton(props: { path: string; filters: object; fileName: string; label: string }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<{ bytes: number; rows: number | null } | null>(null);
  const run = async () => {
    setProgress({ bytes: 0, rows: null });
    try {
      let rows = 0;
      const blob = await exportFile(props.path, props.filters, (bytes, total) => {
        rows = total;
        setProgress({ bytes, rows: total });
      });
      saveBlob(blob, props.fileName);
      showToast('success', t('checkin.export.done', { count: rows }));
    } catch {
      // told by the data-access layer
    } finally {
      setProgress(null);
    }
  };
  return (
    <span className="checkin-export">
      <Button
        basic
        type="button"
        icon="file excel outline"
        content={props.label}
        disabled={progress !== null}
        onClick={() => void run()}
        data-testid={`export-${props.fileName}`}
      />
      {progress && (
        <span role="status" data-testid="export-progress">
          <Icon name="spinner" loading aria-hidden="true" />
          {progress.rows === null
            ? t('checkin.export.downloading')
            : t('checkin.export.exporting', { count: progress.rows, kb: Math.round(progress.bytes / 1024) })}
        </span>
      )}
    </span>
  );
}
