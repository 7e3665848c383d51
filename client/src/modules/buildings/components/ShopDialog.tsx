import { useState } from 'react';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { saveShop, type ShopInfo } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';
import { numberError } from '../utils/numberField';

/** Add or edit a merchant (SPEC §2, §3 "Merchant": shop code, name, invite-member count). */
export function ShopDialog({
  shop,
  onClose,
  onSaved,
}: {
  shop: ShopInfo | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({
    shopCode: shop?.shopCode ?? '',
    name: shop?.name ?? '',
    invitePerson: String(shop?.invitePerson ?? 3),
  });
  const [shown, setShown] = useState(false);
  const [saving, setSaving] = useState(false);
  const invite = numberError(draft.invitePerson, 0, 99, 'buildings.messages.onlyNumbers');
  const errors = {
    shopCode: draft.shopCode.trim()
      ? null
      : t('buildings.messages.required', { field: t('buildings.fields.shopCode') }),
    name: draft.name.trim() ? null : t('buildings.messages.required', { field: t('buildings.fields.shopName') }),
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
      await saveShop({
        shopId: shop?.shopId,
        shopCode: draft.shopCode.trim(),
        name: draft.name.trim(),
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
  const field = (k: keyof typeof draft, label: string, extra: object = {}) => (
    <Form.Input
      id={`shop-${k}`}
      label={t(label)}
      value={draft[k]}
      onChange={(_, d) => setDraft((x) => ({ ...x, [k]: d.value }))}
      error={error(k)}
      data-testid={`shop-${k}`}
      {...extra}
    />
  );
  return (
    <DraggableDialog
      open
      title={t(shop ? 'buildings.actions.editShop' : 'buildings.actions.addShop')}
      onClose={onClose}
      data-testid="shop-dialog"
      actions={
        <>
          <Button onClick={onClose}>{t('buildings.actions.cancel')}</Button>
          <Button primary loading={saving} onClick={() => void submit()} data-testid="shop-save">
            {t('buildings.actions.save')}
          </Button>
        </>
      }
    >
      <Form noValidate onSubmit={() => void submit()}>
        {field('shopCode', 'buildings.fields.shopCode', { required: true, maxLength: 50 })}
        {field('name', 'buildings.fields.shopName', { required: true, maxLength: 100 })}
        {field('invitePerson', 'buildings.fields.invitePerson', { inputMode: 'numeric' })}
        <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
      </Form>
    </DraggableDialog>
  );
}
