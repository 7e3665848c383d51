import { useTranslation } from 'react-i18next';
import { Icon } from 'semantic-ui-react';
import { ChatRecordType } from '@pm/shared';
import { imageUrl } from '../../api';
import { VoicePlayer } from '../../ui/components/VoicePlayer';
import { formatBytes, linkify, parseFileContent } from '../utils/chatContent';

/**
 * One message's content by type (SPEC §3): text with clickable links (never HTML), a picture at
 * most 200 px wide that opens larger, a voice message with its duration, a file with name, size
 * and a download.
 */
export function MessageBody({
  type,
  content,
  previewUrl,
  onOpenPicture,
}: {
  type: number;
  content: string;
  previewUrl?: string;
  onOpenPicture?: (url: string) => void;
}) {
  const { t } = useTranslation();
  if (type === ChatRecordType.picture) {
    const src = previewUrl ?? imageUrl(content);
    return (
      <button
        type="button"
        className="chat-picture"
        onClick={() => onOpenPicture?.(src)}
        aria-label={t('im.openPicture')}
        data-testid="chat-picture"
      >
        <img src={src} alt={t('messages.chat.picture')} loading="lazy" />
      </button>
    );
  }
  if (type === ChatRecordType.voice) return <VoicePlayer source={imageUrl(content)} />;
  if (type === ChatRecordType.file) {
    const f = parseFileContent(content);
    return (
      <a
        className="chat-file"
        href={`${imageUrl(f.url)}?name=${encodeURIComponent(f.name)}`}
        download={f.name}
        data-testid="chat-file"
      >
        <Icon name="file outline" size="large" />
        <span className="chat-file-name">{f.name}</span>
        {f.size !== null && <span className="chat-file-size">{formatBytes(f.size)}</span>}
        <span className="chat-file-download">{t('im.download')}</span>
      </a>
    );
  }
  return (
    <span className="chat-text">
      {linkify(content).map((part, i) =>
        part.href ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </span>
  );
}
