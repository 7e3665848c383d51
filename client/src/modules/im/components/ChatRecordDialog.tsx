import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Loader } from 'semantic-ui-react';
import { CHAT_OLDER_PAGE } from '@pm/shared';
import { fetchConversations, fetchRecords, type ChatRecord } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { EmptyPlaceholder } from '../../ui/components/EmptyPlaceholder';
import { mergeRecords } from '../hooks/useConversation';
import { MessageRow } from './MessageRow';
import { PictureDialog } from './PictureDialog';

/**
 * SPEC §2 "chat record": the history of the private chat between the signed-in person and
 * `person`, read-only, newest first page then older ones on demand. Opened from a person's entry
 * in the address book; nothing is sent and nothing is marked read from here.
 */
export function ChatRecordDialog({
  person,
  me,
  onClose,
}: {
  person: { personId: number; name: string };
  me: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [groupId, setGroupId] = useState<number | null | undefined>(undefined);
  const [records, setRecords] = useState<ChatRecord[]>([]);
  const [hasOlder, setHasOlder] = useState(false);
  const [picture, setPicture] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetchConversations('', false, abort.signal).then(
      async (page) => {
        const found = page.list.find((g) => g.groupType === 1 && g.other?.personId === person.personId);
        setGroupId(found?.groupId ?? null);
        if (!found) return;
        const first = await fetchRecords(found.groupId, 'desc', CHAT_OLDER_PAGE, undefined, abort.signal);
        const merged = mergeRecords([], first.list);
        setRecords(merged);
        setHasOlder((merged[0]?.seq ?? 1) > 1);
      },
      () => undefined,
    );
    return () => abort.abort();
  }, [person.personId]);
  const older = async () => {
    if (!groupId || records.length === 0) return;
    const page = await fetchRecords(groupId, 'desc', CHAT_OLDER_PAGE, records[0].seq);
    const merged = mergeRecords(records, page.list);
    setRecords(merged);
    setHasOlder((merged[0]?.seq ?? 1) > 1 && page.list.length > 0);
  };
  return (
    <DraggableDialog
      open
      title={t('im.chatRecord.title', { name: person.name })}
      onClose={onClose}
      size="small"
      data-testid="chat-record-dialog"
    >
      {groupId === undefined ? (
        <Loader active inline="centered" />
      ) : groupId === null ? (
        <EmptyPlaceholder text={t('im.chatRecord.none')} />
      ) : (
        <div className="chat-record-list">
          {hasOlder && (
            <Button size="small" basic fluid onClick={() => void older()} data-testid="chat-record-older">
              {t('im.chatRecord.older')}
            </Button>
          )}
          {records.map((r) => (
            <MessageRow key={r.seq} record={r} me={me} showSender={false} onOpenPicture={setPicture} />
          ))}
        </div>
      )}
      <PictureDialog url={picture} onClose={() => setPicture(null)} />
    </DraggableDialog>
  );
}
