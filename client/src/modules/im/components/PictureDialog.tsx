import { useTranslation } from 'react-i18next';
import { DraggableDialog } from '../../ui/components/DraggableDialog';

/** A chat picture, enlarged (SPEC §9 shows pictures at most 200 px wide in the conversation). */
export function PictureDialog({ url, onClose }: { url: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <DraggableDialog
      open={url !== null}
      title={t('messages.chat.picture')}
      onClose={onClose}
      size="large"
      data-testid="chat-picture-dialog"
    >
      {url && <img className="chat-picture-large" src={url} alt={t('messages.chat.picture')} />}
    </DraggableDialog>
  );
}
