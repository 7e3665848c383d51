import { useEffect, useRef, useState } from 'react';
import { Button, Form, Header, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { deleteHouse, fetchUnit, modifyUnit, renameUnit, type UnitInfo } from '../../api';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';
import { numberError } from '../utils/numberField';
import { HousePeopleTabs } from '../../owners';
import { HouseCodes } from './HouseCodes';
import { HouseStatusLabel } from './HouseStatusLabel';
import { InfoFields } from './InfoFields';

const ROOM_FIELDS = ['room', 'livingRoom', 'restroom', 'invitePerson'] as const;
type RoomDraft = Record<(typeof ROOM_FIELDS)[number], string>;

/**
 * Unit info (SPEC §3): block, floor, unit, rooms, status, owner, invite and QR code; modify
 * rooms / living rooms / restrooms / invite-member count, rename, delete. The house's people
 * (owner, tenants, members, history staff) go in the slot under these fields.
 */
export function UnitInfoDialog({
  id,
  canEdit,
  onClose,
  onChanged,
}: {
  id: number | null;
  canEdit: boolean;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [info, setInfo] = useState<UnitInfo | null>(null);
  const [reloads, setReloads] = useState(0);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (id === null) return setInfo(null);
    const abort = new AbortController();
    fetchUnit(id, abort.signal).then(setInfo, () => {
      if (!abort.signal.aborted) closeRef.current();
    });
    return () => abort.abort();
  }, [id, reloads]);
  useLiveEvent((e) => {
    if (e.topic === 'residents' && id !== null) setReloads((n) => n + 1);
  });
  const changed = () => {
    setReloads((n) => n + 1);
    onChanged();
  };
  const shown = info && info.unitId === id ? info : null;

  const remove = async () => {
    if (!shown || !(await confirm(t('buildings.messages.confirmDelete', { name: shown.name })))) return;
    try {
      await deleteHouse('unit', shown.unitId);
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
      title={
        shown
          ? `${t('buildings.titles.unitInfo')} · ${shown.buildName} ${shown.floorName} ${shown.name}`
          : t('buildings.titles.unitInfo')
      }
      onClose={onClose}
      size="large"
      top="5vh"
      data-testid="unit-info"
      actions={
        <>
          {canEdit && shown && (
            <Button negative basic onClick={() => void remove()} data-testid="delete-unit">
              {t('buildings.actions.deleteUnit')}
            </Button>
          )}
          <Button onClick={onClose}>{t('buildings.actions.close')}</Button>
        </>
      }
    >
      {shown && (
        <>
          <InfoFields
            items={[
              [t('buildings.fields.block'), shown.buildName],
              [t('buildings.fields.floor'), shown.floorName],
              [t('buildings.fields.unit'), shown.name],
              [t('buildings.fields.status'), <HouseStatusLabel key="s" status={shown.houseStatus} />],
              [t('buildings.fields.owner'), shown.owner?.name ?? null],
              [
                `${t('buildings.fields.room')} / ${t('buildings.fields.livingRoom')} / ${t('buildings.fields.restroom')}`,
                `${shown.room} / ${shown.livingRoom} / ${shown.restroom}`,
              ],
              [t('buildings.fields.invitePerson'), shown.invitePerson],
            ]}
          />
          {canEdit && <RoomsForm key={`${shown.unitId}-${reloads}`} info={shown} onSaved={changed} />}
          {canEdit && <RenameForm key={`n-${shown.unitId}-${reloads}`} info={shown} onSaved={changed} />}
          <HouseCodes
            kind="unit"
            id={shown.unitId}
            name={`${shown.buildName}-${shown.name}`}
            inviteCode={shown.inviteCode}
            canEdit={canEdit}
            onChanged={changed}
          />
          <HousePeopleTabs houseType={1} houseId={shown.unitId} />
        </>
      )}
    </DraggableDialog>
  );
}

/** Modify room / living room / restroom / invite-member count (SPEC §7 /base/unit/modify). */
function RoomsForm({ info, onSaved }: { info: UnitInfo; onSaved: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<RoomDraft>({
    room: String(info.room),
    livingRoom: String(info.livingRoom),
    restroom: String(info.restroom),
    invitePerson: String(info.invitePerson),
  });
  const [saving, setSaving] = useState(false);
  const max = { room: 20, livingRoom: 20, restroom: 20, invitePerson: 99 };
  const errorOf = (k: keyof RoomDraft) => {
    const key = numberError(draft[k], 0, max[k], 'buildings.messages.onlyNumbers');
    return key ? t(key, { field: t(`buildings.fields.${k}`) }) : null;
  };
  const valid = ROOM_FIELDS.every((k) => errorOf(k) === null);
  const submit = async () => {
    if (!valid || saving) return;
    setSaving(true);
    try {
      await modifyUnit(info.unitId, {
        room: Number(draft.room),
        livingRoom: Number(draft.livingRoom),
        restroom: Number(draft.restroom),
        invitePerson: Number(draft.invitePerson),
      });
      showToast('success', t('buildings.messages.saved'));
      onSaved();
    } catch {
      // told
    } finally {
      setSaving(false);
    }
  };
  return (
    <Segment>
      <Form noValidate onSubmit={() => void submit()} data-testid="rooms-form">
        <Form.Group widths="equal">
          {ROOM_FIELDS.map((k) => {
            const error = errorOf(k);
            return (
              <Form.Input
                key={k}
                id={`unit-${k}`}
                label={t(`buildings.fields.${k}`)}
                inputMode="numeric"
                value={draft[k]}
                onChange={(_, d) => setDraft((x) => ({ ...x, [k]: d.value }))}
                error={error ? { content: error, pointing: 'above' } : undefined}
                data-testid={`unit-${k}`}
              />
            );
          })}
        </Form.Group>
        <Button primary size="small" type="submit" disabled={!valid} loading={saving} data-testid="rooms-save">
          {t('buildings.actions.modify')}
        </Button>
      </Form>
    </Segment>
  );
}

function RenameForm({ info, onSaved }: { info: UnitInfo; onSaved: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(info.name);
  const error = name.trim() ? null : t('buildings.messages.required', { field: t('buildings.fields.unitName') });
  const submit = async () => {
    if (error || name.trim() === info.name) return;
    try {
      await renameUnit(info.unitId, name.trim());
      showToast('success', t('buildings.messages.saved'));
      onSaved();
    } catch {
      // told
    }
  };
  return (
    <Segment>
      <Header as="h3" size="tiny">
        {t('buildings.actions.editUnit')}
      </Header>
      <Form noValidate onSubmit={() => void submit()} className="buildings-inline-form">
        <Form.Input
          id="unit-name"
          label={t('buildings.fields.unitName')}
          value={name}
          maxLength={50}
          onChange={(_, d) => setName(d.value)}
          error={error ? { content: error, pointing: 'above' } : undefined}
        />
        <Button size="small" type="submit" disabled={!!error}>
          {t('buildings.actions.save')}
        </Button>
      </Form>
    </Segment>
  );
}
