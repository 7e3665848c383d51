import { Icon, Message } from 'semantic-ui-react';
import { useSnapshot } from 'valtio';
import { dismissToast, toastState } from '../states/toasts';

/** Toasts at the top, notifications with a title (chat) at the bottom right. */
export function Toaster() {
  const snap = useSnapshot(toastState);
  const toasts = snap.items.filter((t) => !t.title);
  const notes = snap.items.filter((t) => t.title);
  return (
    <>
      <div className="toaster" role="status" aria-live="polite">
        {toasts.map((t) => (
          <Message
            key={t.id}
            size="small"
            data-testid={`toast-${t.kind}`}
            success={t.kind === 'success'}
            error={t.kind === 'error'}
            info={t.kind === 'info'}
            warning={t.kind === 'warning'}
            onDismiss={() => dismissToast(t.id)}
            content={t.text}
          />
        ))}
      </div>
      <div className="notifications">
        {notes.map((t) => (
          <Message
            key={t.id}
            data-testid="chat-notification"
            info
            className={t.onClick ? 'clickable' : undefined}
            onClick={() => {
              t.onClick?.();
              dismissToast(t.id);
            }}
            onDismiss={(e) => {
              e.stopPropagation();
              dismissToast(t.id);
            }}
          >
            <Message.Header>
              <Icon name="comment" /> {t.title}
            </Message.Header>
            <p>{t.text}</p>
          </Message>
        ))}
      </div>
    </>
  );
}
