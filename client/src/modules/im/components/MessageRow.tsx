import { memo } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button, Icon } from 'semantic-ui-react';
import { ChatRecordType } from '@pm/shared';
import type { ChatRecord } from '../../api';
import { formatTime } from '../../ui/utils/formatTime';
import type { PendingMessage } from '../hooks/useConversation';
import { parseSystemLine, systemLineText } from '../utils/chatContent';
import { ChatAvatar } from './ChatAvatar';
import { MessageBody } from './MessageBody';

interface Props {
  record?: ChatRecord;
  pending?: PendingMessage;
  me: number;
  showSender: boolean;
  onOpenPicture?: (url: string) => void;
  onResend?: (clientId: string) => void;
  onDiscard?: (clientId: string) => void;
  /** "Make a complaint or work order" of a message from someone else; absent: not offered. */
  onMakeWork?: (record: ChatRecord) => void;
}

/** One line of a conversation: a message (own on the right), a system line, or a message being sent. */
export const MessageRow = memo(function MessageRow({
  record,
  pending,
  me,
  showSender,
  onOpenPicture,
  onResend,
  onDiscard,
  onMakeWork,
}: Props) {
  const { t } = useTranslation();
  if (record?.type === ChatRecordType.system) {
    const line = parseSystemLine(record.content);
    const text = systemLineText(t, record.content, me);
    return (
      <div className="chat-system-line" data-testid="chat-system-line" data-seq={record.seq}>
        {line?.event === 'work' ? (
          // A complaint or work order made from a message: the line opens it.
          <Link
            to={`${line.kind === 'complaint' ? '/complaints-suggestions/index' : '/event-work-order/index'}?open=${line.id}`}
          >
            {text}
          </Link>
        ) : (
          <span>{text}</span>
        )}
      </div>
    );
  }
  const own = pending !== undefined || record?.fromPersonId === me;
  const type = record?.type ?? pending!.outgoing.type;
  const content = record?.content ?? pending?.content ?? (pending?.outgoing.type === 1 ? pending.outgoing.text : '');
  const at = record?.createdAt ?? pending!.createdAt;
  return (
    <div
      className={`chat-message ${own ? 'own' : 'theirs'}${pending ? ` pending ${pending.status}` : ''}`}
      data-testid="chat-message"
      data-seq={record?.seq}
      data-status={pending ? pending.status : 'sent'}
    >
      {!own && <ChatAvatar url={record?.fromImages[0]?.url} />}
      <div className="chat-bubble-column">
        {!own && showSender && <div className="chat-sender">{record?.fromName}</div>}
        <div className="chat-bubble">
          {pending && pending.outgoing.type !== 1 && content === '' ? (
            pending.previewUrl ? (
              <MessageBody type={type} content="" previewUrl={pending.previewUrl} />
            ) : (
              <span className="chat-uploading">
                <Icon name={pending.outgoing.type === 4 ? 'microphone' : 'file outline'} />
                {pending.outgoing.type === 5
                  ? pending.outgoing.name
                  : t(pending.outgoing.type === 4 ? 'messages.chat.voice' : 'messages.chat.file')}
              </span>
            )
          ) : (
            <MessageBody type={type} content={content} previewUrl={pending?.previewUrl} onOpenPicture={onOpenPicture} />
          )}
        </div>
        <div className="chat-meta">
          <time>{formatTime(at)}</time>
          {pending?.status === 'sending' && <span className="chat-status">{t('im.status.sending')}</span>}
          {pending?.status === 'failed' && (
            <span className="chat-status failed" role="status">
              <Icon name="warning circle" />
              {t('im.status.failed')}
              <Button size="mini" basic compact onClick={() => onResend?.(pending.clientId)} data-testid="chat-resend">
                {t('im.actions.resend')}
              </Button>
              <Button size="mini" basic compact onClick={() => onDiscard?.(pending.clientId)}>
                {t('im.actions.discard')}
              </Button>
            </span>
          )}
          {record && !own && onMakeWork && (
            <Button
              size="mini"
              basic
              compact
              className="chat-make-work"
              onClick={() => onMakeWork(record)}
              data-testid="chat-make-work"
            >
              <Icon name="clipboard list" />
              {t('im.actions.makeWork')}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
});
