import { useState } from 'react';
import { Button, Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { exportList, saveBlob, type HouseKindName } from '../../api';
import { showToast } from '../../ui/states/toasts';
import { formatKb } from '../utils/formatKb';

const FILE = { unit: 'units', carpark: 'parking-spaces', shop: 'shops' } as const;

/**
 * Exports the current list (its applied filters) to Excel in the background: the person keeps
 * working while the file streams in, told its rows (X-Total-Rows) and the KB received so far.
 */
export function ExportButton({ kind, filters }: { kind: HouseKindName; filters: object }) {
  const { t } = useTranslation();
  /** `rows` is null until the answer's headers arrive (X-Total-Rows). */
  const [progress, setProgress] = useState<{ bytes: number; rows: number | null } | null>(null);
  const run = async () => {
    setProgress({ bytes: 0, rows: null });
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
        // The file streams in without a length: the rows it holds and the KB received so far.
        <span className="buildings-export-progress" role="status" data-testid="export-progress">
          <Icon name="spinner" loading aria-hidden="true" />
          {progress.rows === null
            ? t('buildings.messages.downloading')
            : t('buildings.messages.exporting', { count: progress.rows, kb: formatKb(progress.bytes) })}
        </span>
      )}
    </>
  );
}
