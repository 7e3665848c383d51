import { Button } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { answerConfirm, confirmState } from '../states/confirms';
import { DraggableDialog } from './DraggableDialog';

/** Renders the confirmations asked through confirm(); the confirm button has the focus. */
export default function ConfirmHost() {
  const { t } = useTranslation();
  const snap = useSnapshot(confirmState);
  const c = snap.open[0];
  if (!c) return null;
  return (
    <DraggableDialog
      key={c.id}
      open
      size="tiny"
      title={c.title ?? t('common.tip')}
      onClose={() => answerConfirm(c.id, false)}
      initialFocus="[data-testid=confirm-ok]"
      data-testid="confirm-dialog"
      actions={
        <>
          <Button onClick={() => answerConfirm(c.id, false)} data-testid="confirm-cancel">
            {c.cancelText ?? t('common.cancel')}
          </Button>
          <Button primary onClick={() => answerConfirm(c.id, true)} data-testid="confirm-ok">
            {c.confirmText ?? t('common.confirm')}
          </Button>
        </>
      }
    >
      <p>{c.content}</p>
    </DraggableDialog>
  );
}
