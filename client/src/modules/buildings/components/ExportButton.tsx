import { useState } from 'react';
import { Button, Progress } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { exportList, saveBlob, type HouseKindName } from '../../api';
import { showToast } from '../../ui/states/toasts';

const FILE = { unit: 'units', carpark: 'parking-spaces', shop: 'shops' } as const;

/**
 * Exports the current list (its applied filters) to Excel in the background: the person keeps
 * working while the file streams in, with the rows and the bytes received so far.
 */
export function ExportButton({ kind, filters }: { kind: HouseKindName; filters: object }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<{ bytes: number; rows: number } | null>(null);
  const run = async () => {
    setProgress({ bytes: 0, rows: 0 });
    try {
      let rows = 0;
      const blob = await exportList(kind, filters, (bytes, total) => {
        rows = total;
        setProgress({ bytes, rows: total });
      });
      saveBlob(blob, `${FILE[kind]}.xlsx`);
      showToast('success', t('buildings.messages.exported', { count: rows }));
    } catch {
      // told
    } finally {
      setProgress(null);
    }
  };
  return (
    <>
      <Button
        basic
        icon="file excel outline"
        content={t('buildings.actions.export')}
        disabled={progress !== null}
        onClick={() => void run()}
        data-testid="export-list"
      />
      {progress && (
        <Progress
          className="buildings-export-progress"
          percent={100}
          active
          size="small"
          role="status"
          label={t('buildings.messages.exporting', { count: progress.rows, kb: Math.round(progress.bytes / 1024) })}
          data-testid="export-progress"
        />
      )}
    </>
  );
}
