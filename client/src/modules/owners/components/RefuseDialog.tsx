import { useEffect, useState } from 'react';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import type { PersonHouseRow } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';

/** The refuse-join dialog (SPEC §2): an optional reason the resident reads in their app. */
export function RefuseDialog({
  row,
  busy,
  onRefuse,
  onClose,
}: {
  row: PersonHouseRow | null;
  busy: boolean;
  onRefuse: (row: PersonHouseRow, reason: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  useEffect(() => setReason(''), [row]);
  return (
    <DraggableDialog
      open={row !== null}
      title={t('owners.refuse.title', { name: row?.name ?? '' })}
      onClose={onClose}
      data-testid="refuse-dialog"
      actions={
        <>
          <Button type="button" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form="refuse-form" negative loading={busy} disabled={busy} data-testid="refuse-submit">
            {t('owners.actions.refuse')}
          </Button>
        </>
      }
    >
      <Form
        id="refuse-form"
        onSubmit={() => {
          if (row) onRefuse(row, reason.trim());
        }}
      >
        <Form.TextArea
          id="refuse-reason"
          label={t('owners.refuse.reason')}
          placeholder={t('owners.refuse.placeholder')}
          maxLength={200}
          value={reason}
          onChange={(_, d) => setReason(String(d.value ?? ''))}
          data-testid="refuse-reason"
        />
      </Form>
    </DraggableDialog>
  );
}
