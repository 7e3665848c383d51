import { useRef } from 'react';
import { Dropdown } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../states/toasts';

interface Props {
  onDownloadTemplate: () => void;
  onImport: (file: File) => void;
  /** Accepted extensions, e.g. ['.xlsx', '.xls']. */
  accept?: string[];
}

/** Import dropdown: download the template, or choose a file to import (wrong format is refused, SPEC §5). */
export function ImportDropdown({ onDownloadTemplate, onImport, accept = ['.xlsx', '.xls'] }: Props) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Dropdown button className="basic small" text={t('common.import')} icon="upload" labeled floating>
        <Dropdown.Menu>
          <Dropdown.Item icon="download" text={t('common.downloadTemplate')} onClick={onDownloadTemplate} />
          <Dropdown.Item icon="file excel" text={t('common.importFile')} onClick={() => input.current?.click()} />
        </Dropdown.Menu>
      </Dropdown>
      <input
        ref={input}
        type="file"
        hidden
        accept={accept.join(',')}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          if (!accept.some((ext) => file.name.toLowerCase().endsWith(ext))) showToast('error', t('errors.fileFormat'));
          else onImport(file);
        }}
      />
    </>
  );
}
