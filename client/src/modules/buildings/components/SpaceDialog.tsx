import { useState } from 'react';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { ParkingSpaceType } from '@pm/shared';
import { saveSpace, type CarParkRow, type SpaceInfo } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';
import { enumOptions } from '../../ui/utils/enumLabels';
import { numberError } from '../utils/numberField';
import { ChoiceField } from './ChoiceField';

/** Add or edit a park space (SPEC §2, §3 "Parking space": type, code, licence plate, invite-member count). */
export function SpaceDialog({
  space,
  carParks,
  onClose,
  onSaved,
}: {
  space: SpaceInfo | null;
  carParks: CarParkRow[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({
    carParkId: String(space?.carParkId ?? carParks[0]?.carParkId ?? ''),
    carparkCode: space?.carparkCode ?? '',
    type: String(space?.type ?? ParkingSpaceType.privateCar),
    plate: space?.plate ?? '',
    invitePerson: String(space?.invitePerson ?? 3),
  });
  const [shown, setShown] = useState(false);
  const [saving, setSaving] = useState(false);
  const invite = numberError(draft.invitePerson, 0, 99, 'buildings.messages.onlyNumbers');
  const errors = {
    carParkId: draft.carParkId ? null : t('buildings.messages.required', { field: t('buildings.fields.carPark') }),
    carparkCode: draft.carparkCode.trim()
      ? null
      : t('buildings.messages.required', { field: t('buildings.fields.carparkCode') }),
    invitePerson: invite ? t(invite, { field: t('buildings.fields.invitePerson') }) : null,
  };
  const valid = Object.values(errors).every((e) => e === null);
  const error = (k: keyof typeof errors) =>
    shown && errors[k] ? { content: errors[k], pointing: 'above' as const } : undefined;

  const submit = async () => {
    setShown(true);
    if (!valid || saving) return;
    setSaving(true);
    try {
      await saveSpace({
        carSpaceId: space?.carSpaceId,
        carParkId: Number(draft.carParkId),
        carparkCode: draft.carparkCode.trim(),
        type: Number(draft.type),
        plate: draft.plate.trim() || undefined,
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
    <DraggableDialog
      open
      title={t(space ? 'buildings.actions.editSpace' : 'buildings.actions.addSpace')}
      onClose={onClose}
      data-testid="space-dialog"
      actions={
        <>
          <Button onClick={onClose}>{t('buildings.actions.cancel')}</Button>
          <Button primary loading={saving} onClick={() => void submit()} data-testid="space-save">
            {t('buildings.actions.save')}
          </Button>
        </>
      }
    >
      <Form noValidate onSubmit={() => void submit()}>
        <ChoiceField
          label={t('buildings.fields.carPark')}
          value={draft.carParkId}
          onChange={(carParkId) => setDraft((d) => ({ ...d, carParkId }))}
          options={carParks.map((c) => ({ value: c.carParkId, text: c.name }))}
          data-testid="space-carPark"
        />
        {shown && errors.carParkId && <p className="buildings-error">{errors.carParkId}</p>}
        <Form.Group widths="equal">
          <Form.Input
            id="space-code"
            label={t('buildings.fields.carparkCode')}
            required
            maxLength={50}
            value={draft.carparkCode}
            onChange={(_, d) => setDraft((x) => ({ ...x, carparkCode: d.value }))}
            error={error('carparkCode')}
            data-testid="space-code"
          />
          <ChoiceField
            label={t('buildings.fields.type')}
            value={draft.type}
            onChange={(type) => setDraft((d) => ({ ...d, type }))}
            options={enumOptions(t, ParkingSpaceType)}
            data-testid="space-type"
          />
        </Form.Group>
        <Form.Group widths="equal">
          <Form.Input
            id="space-plate"
            label={t('buildings.fields.plate')}
            maxLength={20}
            value={draft.plate}
            onChange={(_, d) => setDraft((x) => ({ ...x, plate: d.value }))}
            data-testid="space-plate"
          />
          <Form.Input
            id="space-invite"
            label={t('buildings.fields.invitePerson')}
            inputMode="numeric"
            value={draft.invitePerson}
            onChange={(_, d) => setDraft((x) => ({ ...x, invitePerson: d.value }))}
            error={error('invitePerson')}
            data-testid="space-invite"
          />
        </Form.Group>
        <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
      </Form>
    </DraggableDialog>
  );
}
