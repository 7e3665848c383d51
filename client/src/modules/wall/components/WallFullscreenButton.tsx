import { useEffect, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Shows the wall screen on the whole display (Fullscreen API) and back. A real button: Tab
 * reaches it, Enter or Space presses it; Escape leaves full screen as the browser provides.
 */
export function WallFullscreenButton({ target }: { target: RefObject<HTMLElement | null> }) {
  const { t } = useTranslation();
  const [full, setFull] = useState(() => document.fullscreenElement !== null);
  useEffect(() => {
    const changed = () => setFull(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', changed);
    return () => document.removeEventListener('fullscreenchange', changed);
  }, []);
  if (!document.fullscreenEnabled) return null;
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void target.current?.requestFullscreen().catch(() => undefined);
  };
  return (
    <button type="button" className="wall-button" onClick={toggle} aria-pressed={full} data-testid="wall-fullscreen">
      {full ? t('wall.actions.exitFullScreen') : t('wall.actions.fullScreen')}
    </button>
  );
}
