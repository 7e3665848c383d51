import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Icon } from 'semantic-ui-react';
import type { Outgoing } from '../hooks/useConversation';

/** Files as messages: pictures as pictures, anything else as a file. */
export function outgoingOf(files: File[]): Outgoing[] {
  return files.map((f) =>
    f.type.startsWith('image/')
      ? { type: 2, file: f, name: f.name || 'picture.png' }
      : { type: 5, file: f, name: f.name },
  );
}

const canRecord = () =>
  typeof window !== 'undefined' && 'MediaRecorder' in window && !!navigator.mediaDevices?.getUserMedia;

/**
 * The message editor (SPEC §9): Enter sends, Shift+Enter starts a new line; pictures and files by
 * their buttons or pasted with Ctrl+V (SPEC §7 "Editor"); a voice message recorded in the browser
 * where it allows (MediaRecorder), with its duration.
 */
export function Composer({ onSend, disabled }: { onSend: (o: Outgoing) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const pictures = useRef<HTMLInputElement>(null);
  const files = useRef<HTMLInputElement>(null);
  const [recording, setRecording] = useState<{ started: number; stop: () => void } | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const [voiceError, setVoiceError] = useState('');

  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => setElapsed(Math.round((Date.now() - recording.started) / 1000)), 500);
    return () => clearInterval(timer);
  }, [recording]);

  const sendText = () => {
    const value = text.trim();
    if (!value || disabled) return;
    onSend({ type: 1, text: value });
    setText('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      sendText();
    }
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = [...e.clipboardData.files];
    if (pasted.length === 0) return;
    e.preventDefault();
    for (const o of outgoingOf(pasted)) onSend(o);
  };
  const pick = (input: HTMLInputElement | null, asPicture: boolean) => {
    const chosen = [...(input?.files ?? [])];
    if (input) input.value = '';
    for (const f of chosen) onSend(asPicture ? { type: 2, file: f, name: f.name } : { type: 5, file: f, name: f.name });
  };

  const record = async () => {
    setVoiceError('');
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const recorder = new MediaRecorder(stream);
      const chunks: Blob[] = [];
      const started = Date.now();
      recorder.ondataavailable = (e) => chunks.push(e.data);
      recorder.onstop = () => {
        stream.getTracks().forEach((track) => track.stop());
        const seconds = Math.max(1, Math.round((Date.now() - started) / 1000));
        onSend({ type: 4, file: new Blob(chunks, { type: recorder.mimeType || 'audio/webm' }), seconds });
        setRecording(null);
      };
      recorder.start();
      setElapsed(0);
      setRecording({ started, stop: () => recorder.stop() });
    } catch {
      setVoiceError(t('im.voice.denied'));
    }
  };

  return (
    <div className="chat-composer">
      <div className="chat-tools">
        <Button
          type="button"
          icon
          basic
          size="small"
          onClick={() => pictures.current?.click()}
          disabled={disabled}
          aria-label={t('im.actions.sendPicture')}
          title={t('im.actions.sendPicture')}
          data-testid="chat-send-picture"
        >
          <Icon name="image outline" />
        </Button>
        <Button
          type="button"
          icon
          basic
          size="small"
          onClick={() => files.current?.click()}
          disabled={disabled}
          aria-label={t('im.actions.sendFile')}
          title={t('im.actions.sendFile')}
          data-testid="chat-send-file"
        >
          <Icon name="paperclip" />
        </Button>
        {canRecord() &&
          (recording ? (
            <Button
              type="button"
              size="small"
              color="red"
              onClick={() => recording.stop()}
              data-testid="chat-voice-stop"
            >
              <Icon name="stop" />
              {t('im.voice.stop', { count: elapsed })}
            </Button>
          ) : (
            <Button
              type="button"
              icon
              basic
              size="small"
              onClick={() => void record()}
              disabled={disabled}
              aria-label={t('im.actions.recordVoice')}
              title={t('im.actions.recordVoice')}
              data-testid="chat-voice"
            >
              <Icon name="microphone" />
            </Button>
          ))}
        {voiceError && (
          <span className="chat-voice-error" role="alert">
            {voiceError}
          </span>
        )}
        <input
          ref={pictures}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          multiple
          hidden
          onChange={(e) => pick(e.currentTarget, true)}
          data-testid="chat-picture-input"
        />
        <input
          ref={files}
          type="file"
          multiple
          hidden
          onChange={(e) => pick(e.currentTarget, false)}
          data-testid="chat-file-input"
        />
      </div>
      <div className="chat-input-row">
        <textarea
          className="chat-input"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          placeholder={t('im.composer.placeholder')}
          aria-label={t('im.composer.label')}
          rows={2}
          maxLength={5000}
          disabled={disabled}
          data-testid="chat-input"
        />
        <Button type="button" primary onClick={sendText} disabled={disabled || !text.trim()} data-testid="chat-send">
          {t('im.actions.send')}
        </Button>
      </div>
    </div>
  );
}
