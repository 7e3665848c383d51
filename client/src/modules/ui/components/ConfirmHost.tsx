import { Button, Modal } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { answerConfirm, confirmState } from '../states/confirms';

/** Renders the confirmations asked through confirm(). */
export function ConfirmHost() {
  const { t } = useTranslation();
  const snap = useSnapshot(confirmState);
  const c = snap.open[0];
  if (!c) return null;
  return (
    <Modal open size="tiny" onClose={() => answerConfirm(c.id, false)} data-testid="confirm-dialog">
      <Modal.Header>{c.title ?? t('common.tip')}</Modal.Header>
      <Modal.Content>
        <p>{c.content}</p>
      </Modal.Content>
      <Modal.Actions>
        <Button onClick={() => answerConfirm(c.id, false)} data-testid="confirm-cancel">
          {c.cancelText ?? t('common.cancel')}
        </Button>
        <Button primary onClick={() => answerConfirm(c.id, true)} data-testid="confirm-ok">
          {c.confirmText ?? t('common.confirm')}
        </Button>
      </Modal.Actions>
    </Modal>
  );
}
