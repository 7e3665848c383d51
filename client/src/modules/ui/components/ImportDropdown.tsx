import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../states/toasts';
import { MenuButton } from './MenuButton';

interface Props {
  onDownloadTemplate: () => void;
  onImport: (file: File) => void;
  /** Accepted extensions, e.g. ['.xlsx', '.xls']. */
  accept?: string[];
}

/** Import menu: download the template, or choose a file to import (wrong format is refused, SPEC §5). */
export function ImportDropdown({ onDownloadTemplate, onImport, accept = ['.xlsx', '.xls'] }: Props) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <MenuButton
        label={t('common.import')}
        triggerClassName="ui basic small labeled icon button"
        trigger={
          <>
            <i className="upload icon" aria-hidden="true" />
            {t('common.import')}
          </>
        }
        items={[
          { key: 'template', icon: 'download', text: t('common.downloadTemplate'), onSelect: onDownloadTemplate },
          { key: 'file', icon: 'file excel', text: t('common.importFile'), onSelect: () => input.current?.click() },
        ]}
      />
      <input
        ref={input}
        type="file"
        hidden
        aria-label={t('common.importFile')}
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
