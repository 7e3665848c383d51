import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { deleteHouse, type HouseKindName } from '../../api';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';
import { HousePeopleTabs } from '../../owners';
import { HouseCodes } from './HouseCodes';
import { InfoFields } from './InfoFields';

/**
 * The info dialog of a park space or a shop (SPEC §3): its fields, codes, edit and delete. The
 * house's people (owners issue) go in the slot under the fields.
 */
export function HouseInfoDialog<Info extends { inviteCode: string | null }>({
  kind,
  id,
  titleKey,
  canEdit,
  load,
  idOf,
  nameOf,
  fields,
  onEdit,
  onClose,
  onChanged,
  reloadKey,
}: {
  kind: Exclude<HouseKindName, 'unit'>;
  id: number | null;
  /** Translation key of the dialog's title. */
  titleKey: string;
  canEdit: boolean;
  load: (id: number, signal: AbortSignal) => Promise<Info>;
  idOf: (info: Info) => number;
  nameOf: (info: Info) => string;
  fields: (t: TFunction, info: Info) => [string, ReactNode][];
  onEdit: (info: Info) => void;
  onClose: () => void;
  onChanged: () => void;
  /** Changes when the record was edited elsewhere (the edit dialog): fetch it again. */
  reloadKey: number;
}) {
  const { t } = useTranslation();
  const [info, setInfo] = useState<Info | null>(null);
  const [reloads, setReloads] = useState(0);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    if (id === null) return setInfo(null);
    const abort = new AbortController();
    loadRef.current(id, abort.signal).then(setInfo, () => {
      if (!abort.signal.aborted) closeRef.current();
    });
    return () => abort.abort();
  }, [id, reloads, reloadKey]);
  useLiveEvent((e) => {
    if (e.topic === 'residents' && id !== null) setReloads((n) => n + 1);
  });
  const shown = info && idOf(info) === id ? info : null;

  const remove = async () => {
    if (!shown || !(await confirm(t('buildings.messages.confirmDelete', { name: nameOf(shown) })))) return;
    try {
      await deleteHouse(kind, idOf(shown));
      showToast('success', t('buildings.messages.deleted'));
      onChanged();
      onClose();
    } catch {
      // told (someone is bound)
    }
  };

  return (
    <DraggableDialog
      open={id !== null}
      title={shown ? `${t(titleKey)} · ${nameOf(shown)}` : t(titleKey)}
      onClose={onClose}
      size="large"
      top="5vh"
      data-testid={`${kind}-info`}
      actions={
        <>
          {canEdit && shown && (
            <>
              <Button negative basic onClick={() => void remove()} data-testid="delete-house">
                {t(kind === 'carpark' ? 'buildings.actions.deleteSpace' : 'buildings.actions.deleteShop')}
              </Button>
              <Button primary basic onClick={() => onEdit(shown)} data-testid="edit-house">
                {t(kind === 'carpark' ? 'buildings.actions.editSpace' : 'buildings.actions.editShop')}
              </Button>
            </>
          )}
          <Button onClick={onClose}>{t('buildings.actions.close')}</Button>
        </>
      }
    >
      {shown && (
        <>
          <InfoFields items={fields(t, shown)} />
          <HouseCodes
            kind={kind}
            id={idOf(shown)}
            name={nameOf(shown)}
            inviteCode={shown.inviteCode}
            canEdit={canEdit}
            onChanged={() => {
              setReloads((n) => n + 1);
              onChanged();
            }}
          />
          <HousePeopleTabs houseType={kind === 'carpark' ? 2 : 3} houseId={idOf(shown)} />
        </>
      )}
    </DraggableDialog>
  );
}
