import { Icon, Message } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { dismissToast, pauseToast, resumeToast, toastState, type Toast } from '../states/toasts';

/** The close button of a toast: a real button, reached with Tab (Semantic's close icon is not). */
function CloseButton({ id }: { id: number }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="toast-close"
      aria-label={t('common.close')}
      onClick={(e) => {
        e.stopPropagation();
        dismissToast(id);
      }}
    >
      <i className="close icon" aria-hidden="true" />
    </button>
  );
}

/** A toast keeps its time while the pointer or the focus is on it. */
const holdWhileUsed = (toast: Toast) => ({
  onMouseEnter: () => pauseToast(toast.id),
  onMouseLeave: () => resumeToast(toast.id),
  onFocus: () => pauseToast(toast.id),
  onBlur: () => resumeToast(toast.id),
});

/**
 * Toasts at the top, notifications with a title (chat) in a corner where they cover neither the
 * pagination nor the settings handle (ui.css).
 */
export function Toaster() {
  const { t } = useTranslation();
  const snap = useSnapshot(toastState);
  const toasts = snap.items.filter((x) => !x.title);
  const notes = snap.items.filter((x) => x.title);
  return (
    <>
      <div className="toaster" role="status" aria-live="polite">
        {toasts.map((x) => (
          <Message
            key={x.id}
            size="small"
            data-testid={`toast-${x.kind}`}
            success={x.kind === 'success'}
            error={x.kind === 'error'}
            info={x.kind === 'info'}
            warning={x.kind === 'warning'}
            {...holdWhileUsed(x)}
          >
            <CloseButton id={x.id} />
            <p>{x.text}</p>
            {/* A toast that opens something (a published announcement's detail) has a View button. */}
            {x.onClick && (
              <button
                type="button"
                className="link-button"
                data-testid="toast-open"
                onClick={() => {
                  x.onClick?.();
                  dismissToast(x.id);
                }}
              >
                {t('common.view')}
              </button>
            )}
          </Message>
        ))}
      </div>
      <div className="notifications" role="region" aria-label={t('messages.chat.notifications')}>
        {notes.map((x) => (
          <Message
            key={x.id}
            data-testid="chat-notification"
            info
            className={x.onClick ? 'clickable' : undefined}
            // SPEC §7: clicking the notification opens the chat; the button is the keyboard's way.
            onClick={() => {
              if (!x.onClick) return;
              x.onClick();
              dismissToast(x.id);
            }}
            {...holdWhileUsed(x)}
          >
            <CloseButton id={x.id} />
            <Message.Header>
              <Icon name="comment" aria-hidden="true" /> {x.title}
            </Message.Header>
            <p>{x.text}</p>
            {x.onClick && (
              <button type="button" className="link-button" data-testid="chat-notification-open">
                {t('messages.chat.open')}
              </button>
            )}
          </Message>
        ))}
      </div>
    </>
  );
}
