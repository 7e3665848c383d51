import { useState } from 'react';
import { Button } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchCodesFile, saveBlob, type HouseKindName } from '../../api';
import { showToast } from '../../ui/states/toasts';
import type { Selection } from '../hooks/useSelection';

const FILE = { unit: 'units', carpark: 'parking-spaces', shop: 'shops' } as const;

/**
 * Batch downloads of the selected houses (SPEC §7 download/qrcodes, download/invitecodes): the
 * printable A4 PDF of QR codes and the Excel list of invite codes; "Select at least one item"
 * (SPEC §5) when nothing is selected.
 */
export function SelectionBar({
  kind,
  selection,
  pageIds,
}: {
  kind: HouseKindName;
  selection: Selection;
  pageIds: number[];
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'qrcodes' | 'invitecodes' | null>(null);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selection.ids.has(id));
  const download = async (what: 'qrcodes' | 'invitecodes') => {
    if (selection.ids.size === 0) {
      showToast('error', t('buildings.messages.selectAtLeastOne'));
      return;
    }
    setBusy(what);
    try {
      const blob = await fetchCodesFile(kind, what, [...selection.ids]);
      saveBlob(blob, `${FILE[kind]}-${what === 'qrcodes' ? 'qrcodes.pdf' : 'invite-codes.xlsx'}`);
    } catch {
      // fetchFile has told the person
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="buildings-selection" data-testid="selection-bar">
      <label className="buildings-select-all">
        <input
          type="checkbox"
          className="buildings-check"
          checked={allOnPage}
          onChange={(e) => selection.toggleAll(pageIds, e.target.checked)}
          data-testid="select-all"
        />
        {t('buildings.actions.selectAll')}
      </label>
      <span role="status" data-testid="selected-count">
        {t('buildings.messages.selected', { count: selection.ids.size })}
      </span>
      <Button
        size="small"
        icon="qrcode"
        content={t('buildings.actions.downloadQrs')}
        loading={busy === 'qrcodes'}
        disabled={busy !== null}
        onClick={() => void download('qrcodes')}
        data-testid="download-qrcodes"
      />
      <Button
        size="small"
        icon="file excel outline"
        content={t('buildings.actions.downloadInviteCodes')}
        loading={busy === 'invitecodes'}
        disabled={busy !== null}
        onClick={() => void download('invitecodes')}
        data-testid="download-invitecodes"
      />
    </div>
  );
}
