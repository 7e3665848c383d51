import { useRef, useState, type PointerEvent } from 'react';
import { Button, Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import type { CaptchaPuzzle } from '../../api';

export type CaptchaStatus = 'idle' | 'dropped' | 'failed' | 'passed';

interface Props {
  puzzle: CaptchaPuzzle | null;
  status: CaptchaStatus;
  /** The piece's left edge in the background's pixels when the slider is released. */
  onDrop: (x: number) => void;
  onRefresh: () => void;
}

const HANDLE_PX = 40;

/**
 * Picture-drag slider (SPEC §5): the person drags the piece into the gap. The browser only
 * reports where it was dropped; the api checks the puzzle when the login is sent.
 */
export function SliderCaptcha({ puzzle, status, onDrop, onRefresh }: Props) {
  const { t } = useTranslation();
  const [x, setX] = useState(0);
  const drag = useRef<{ startX: number; from: number } | null>(null);
  const width = puzzle?.width ?? 300;
  const max = width - HANDLE_PX;

  const down = (e: PointerEvent<HTMLDivElement>) => {
    if (!puzzle || status === 'passed') return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { startX: e.clientX, from: x };
  };
  const move = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    setX(Math.min(max, Math.max(0, drag.current.from + e.clientX - drag.current.startX)));
  };
  const up = () => {
    if (!drag.current) return;
    drag.current = null;
    onDrop(x);
  };

  const message =
    status === 'failed' ? t('captcha.failed') : status === 'passed' ? t('captcha.passed') : t('captcha.drag');
  return (
    <div className={`slider-captcha ${status}`} data-testid="slider-captcha" style={{ width }}>
      <div className="captcha-picture" style={{ width, height: puzzle ? undefined : 150 }}>
        {puzzle && (
          <>
            <img src={puzzle.background} alt="" draggable={false} className="captcha-background" />
            <img
              src={puzzle.piece}
              alt=""
              draggable={false}
              className="captcha-piece"
              style={{ left: x, top: puzzle.y }}
            />
          </>
        )}
        <Button
          type="button"
          icon
          size="mini"
          className="captcha-refresh"
          title={t('captcha.refresh')}
          aria-label={t('captcha.refresh')}
          onClick={() => {
            setX(0);
            onRefresh();
          }}
        >
          <Icon name="refresh" />
        </Button>
      </div>
      <div className="captcha-track" data-testid="captcha-track">
        <div className="captcha-fill" style={{ width: x + HANDLE_PX / 2 }} />
        <span className="captcha-text">{message}</span>
        <div
          className="captcha-handle"
          data-testid="captcha-handle"
          role="slider"
          aria-valuemin={0}
          aria-valuemax={max}
          aria-valuenow={Math.round(x)}
          aria-label={t('captcha.drag')}
          style={{ left: x, width: HANDLE_PX }}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
        >
          <Icon name={status === 'passed' ? 'check' : status === 'failed' ? 'close' : 'arrow right'} />
        </div>
      </div>
    </div>
  );
}
