import { useState } from 'react';
import { Button, Form, Message } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { MAX_FLOORS, MAX_UNITS_PER_FLOOR, unitNamesOf } from '@pm/shared';
import { saveBlock, updateBlock, type BlockRow } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';
import { numberError } from '../utils/numberField';
import { ChoiceField } from './ChoiceField';

const EMPTY = {
  name: '',
  number: '',
  floorCount: '',
  unitsPerFloor: '',
  prefix: '',
  suffix: '',
  houseType: '1',
  invitePerson: '5',
};
type Draft = typeof EMPTY;
/** Floors shown in the preview; the rest are counted. */
const PREVIEW_FLOORS = 8;

/**
 * Add a block with its floors and units in one step (SPEC §2 "add/edit block"), with a preview
 * of every unit name before saving; or edit a block's name, number and house type.
 */
export function BlockDialog({
  block,
  open,
  onClose,
  onSaved,
}: {
  /** The block to edit; null to add one. */
  block: BlockRow | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() =>
    block ? { ...EMPTY, name: block.name, number: block.number ?? '', houseType: String(block.houseType) } : EMPTY,
  );
  const [shown, setShown] = useState(false);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const required = (value: string, field: string) =>
    value.trim() ? null : t('buildings.messages.required', { field: t(field).toLowerCase() });
  const numeric = (value: string, min: number, max: number, rangeKey: string, field: string) => {
    const key = numberError(value, min, max, rangeKey);
    return key ? t(key, { max, field: t(field).toLowerCase() }) : null;
  };
  const errors = {
    name: required(draft.name, 'buildings.fields.blockName'),
    number: required(draft.number, 'buildings.fields.blockNumber'),
    floorCount: block
      ? null
      : numeric(draft.floorCount, 1, MAX_FLOORS, 'buildings.messages.floorCountMin', 'buildings.fields.floorCount'),
    unitsPerFloor: block
      ? null
      : numeric(
          draft.unitsPerFloor,
          1,
          MAX_UNITS_PER_FLOOR,
          'buildings.messages.unitCountMin',
          'buildings.fields.unitsPerFloor',
        ),
    invitePerson: block
      ? null
      : numeric(draft.invitePerson, 0, 99, 'buildings.messages.onlyNumbers', 'buildings.fields.invitePerson'),
  };
  const error = (key: keyof typeof errors) =>
    shown && errors[key] ? { content: errors[key], pointing: 'above' as const } : undefined;
  const valid = Object.values(errors).every((e) => e === null);
  const preview =
    !block && !errors.floorCount && !errors.unitsPerFloor
      ? unitNamesOf({
          floorCount: Number(draft.floorCount),
          unitsPerFloor: Number(draft.unitsPerFloor),
          prefix: draft.prefix.trim(),
          suffix: draft.suffix.trim(),
        })
      : null;

  const submit = async () => {
    setShown(true);
    if (!valid || saving) return;
    setSaving(true);
    try {
      if (block)
        await updateBlock({
          blockId: block.blockId,
          name: draft.name.trim(),
          number: draft.number.trim(),
          houseType: Number(draft.houseType),
        });
      else
        await saveBlock({
          name: draft.name.trim(),
          number: draft.number.trim(),
          floorCount: Number(draft.floorCount),
          unitsPerFloor: Number(draft.unitsPerFloor),
          prefix: draft.prefix.trim() || undefined,
          suffix: draft.suffix.trim() || undefined,
          houseType: Number(draft.houseType),
          invitePerson: Number(draft.invitePerson),
        });
      showToast('success', t('buildings.messages.saved'));
      onSaved();
    } catch {
      // the call has told the person
    } finally {
      setSaving(false);
    }
  };

  const input = (key: keyof Draft, label: string, extra: object = {}) => (
    <Form.Input
      id={`block-${key}`}
      label={t(label)}
      value={draft[key]}
      onChange={(_, d) => set({ [key]: d.value } as Partial<Draft>)}
      error={key in errors ? error(key as keyof typeof errors) : undefined}
      data-testid={`block-${key}`}
      {...extra}
    />
  );

  return (
    <DraggableDialog
      open={open}
      title={t(block ? 'buildings.actions.editBlock' : 'buildings.actions.addBlock')}
      onClose={onClose}
      size="small"
      data-testid="block-dialog"
      actions={
        <>
          <Button onClick={onClose}>{t('buildings.actions.cancel')}</Button>
          <Button primary loading={saving} onClick={() => void submit()} data-testid="block-save">
            {t('buildings.actions.save')}
          </Button>
        </>
      }
    >
      <Form noValidate onSubmit={() => void submit()} error={shown && !valid} data-testid="block-form">
        <Form.Group widths="equal">
          {input('name', 'buildings.fields.blockName', { required: true })}
          {input('number', 'buildings.fields.blockNumber', { required: true })}
        </Form.Group>
        {!block && (
          <>
            <Form.Group widths="equal">
              {input('floorCount', 'buildings.fields.floorCount', { required: true, inputMode: 'numeric' })}
              {input('unitsPerFloor', 'buildings.fields.unitsPerFloor', { required: true, inputMode: 'numeric' })}
            </Form.Group>
            <Form.Group widths="equal">
              {input('prefix', 'buildings.fields.prefix', { maxLength: 20 })}
              {input('suffix', 'buildings.fields.suffix', { maxLength: 20 })}
              {input('invitePerson', 'buildings.fields.invitePerson', { inputMode: 'numeric' })}
            </Form.Group>
          </>
        )}
        <ChoiceField
          label={t('buildings.fields.houseType')}
          value={draft.houseType}
          onChange={(houseType) => set({ houseType })}
          options={[1, 2, 3].map((v) => ({ value: v, text: t(`buildings.blockHouseType.h${v}`) }))}
          data-testid="block-houseType"
        />
        <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
      </Form>
      {preview && (
        <Message info size="small" className="buildings-preview" data-testid="block-preview">
          <Message.Header>
            {t('buildings.messages.preview', { count: preview.length * (preview[0]?.names.length ?? 0) })}
          </Message.Header>
          <ul>
            {[...preview]
              .reverse()
              .slice(0, PREVIEW_FLOORS)
              .map((f) => (
                <li key={f.floor} data-testid={`preview-floor-${f.floor}`}>
                  <strong>{f.floor}</strong>: {f.names.join(' · ')}
                </li>
              ))}
          </ul>
          {preview.length > PREVIEW_FLOORS && (
            <p>{t('buildings.messages.previewMore', { count: preview.length - PREVIEW_FLOORS })}</p>
          )}
        </Message>
      )}
    </DraggableDialog>
  );
}
