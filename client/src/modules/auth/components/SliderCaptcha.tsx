import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Button, Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import type { CaptchaPuzzle } from '../../api';
import { findPuzzleGap, loadPixels } from '../utils/findPuzzleGap';

export type CaptchaStatus = 'idle' | 'dropped' | 'failed' | 'passed';

interface Props {
  puzzle: CaptchaPuzzle | null;
  status: CaptchaStatus;
  /** The piece's left edge in the background's pixels when the slider is released. */
  onDrop: (x: number) => void;
  onRefresh: () => void;
}

const HANDLE_PX = 40;
/** Arrow keys move the piece this far; with Shift, Page Up and Page Down ten times as far. */
const KEY_STEP_PX = 2;
const BIG_STEP_PX = 20;

/**
 * Picture-drag slider (SPEC §5): the person drags the piece into the gap, or moves it with the
 * keyboard (arrow keys, Page Up / Page Down, Home, End) and presses Enter. People who cannot see
 * the picture have "place the piece for me". The browser only reports where it was dropped; the
 * api checks the puzzle.
 */
export function SliderCaptcha({ puzzle, status, onDrop, onRefresh }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [x, setX] = useState(0);
  const [placing, setPlacing] = useState(false);
  const drag = useRef<{ startX: number; from: number } | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const handle = useRef<HTMLDivElement>(null);
  const width = puzzle?.width ?? 300;
  const max = width - HANDLE_PX;
  const usable = !!puzzle && status !== 'passed';
  const clamp = (v: number) => Math.min(max, Math.max(0, v));
  // A new puzzle starts from the left; the handle stays the same element, so it keeps the focus.
  const puzzleId = puzzle?.captchaId;
  useEffect(() => setX(0), [puzzleId]);
  // "Place the piece for me" loads the pictures first; a puzzle replaced meanwhile is not dropped on.
  const currentPuzzle = useRef(puzzleId);
  currentPuzzle.current = puzzleId;
  // Passed: "place the piece for me" goes away; a keyboard user's focus stays on the slider
  // (which now says it passed) instead of falling to the page, and Tab goes on to "Sign in".
  useEffect(() => {
    const active = document.activeElement;
    if (status === 'passed' && (active === document.body || root.current?.contains(active))) handle.current?.focus();
  }, [status]);

  const down = (e: PointerEvent<HTMLDivElement>) => {
    if (!usable) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { startX: e.clientX, from: x };
  };
  const move = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    setX(clamp(drag.current.from + e.clientX - drag.current.startX));
  };
  const up = () => {
    if (!drag.current) return;
    drag.current = null;
    onDrop(x);
  };

  const key = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!usable) return;
    const big = e.shiftKey ? BIG_STEP_PX : KEY_STEP_PX;
    const moves: Record<string, () => number> = {
      ArrowRight: () => x + big,
      ArrowUp: () => x + big,
      ArrowLeft: () => x - big,
      ArrowDown: () => x - big,
      PageUp: () => x + BIG_STEP_PX,
      PageDown: () => x - BIG_STEP_PX,
      Home: () => 0,
      End: () => max,
    };
    if (moves[e.key]) {
      e.preventDefault();
      setX(clamp(moves[e.key]()));
    } else if (e.key === 'Enter' || e.key === ' ') {
      // Enter here checks the piece, it does not send the sign-in form.
      e.preventDefault();
      onDrop(x);
    }
  };

  const placeForMe = async () => {
    if (!puzzle || !usable) return;
    setPlacing(true);
    try {
      const [picture, piece] = await Promise.all([loadPixels(puzzle.background), loadPixels(puzzle.piece)]);
      if (currentPuzzle.current !== puzzle.captchaId) return;
      const gap = clamp(findPuzzleGap(picture, piece, puzzle.y));
      setX(gap);
      onDrop(gap);
    } finally {
      setPlacing(false);
    }
  };

  const message =
    status === 'failed' ? t('captcha.failed') : status === 'passed' ? t('captcha.passed') : t('captcha.drag');
  return (
    <div ref={root} className={`slider-captcha ${status}`} data-testid="slider-captcha" style={{ width }}>
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
          onClick={onRefresh}
        >
          <Icon name="refresh" />
        </Button>
      </div>
      <div className="captcha-track" data-testid="captcha-track">
        <div className="captcha-fill" style={{ width: x + HANDLE_PX / 2 }} />
        <span className="captcha-text" aria-live="polite" data-testid="captcha-message">
          {message}
        </span>
        <div
          ref={handle}
          className="captcha-handle"
          data-testid="captcha-handle"
          role="slider"
          tabIndex={usable ? 0 : -1}
          aria-disabled={!usable}
          aria-valuemin={0}
          aria-valuemax={max}
          aria-valuenow={Math.round(x)}
          aria-label={t('captcha.slider')}
          aria-describedby={`${id}-help`}
          style={{ left: x, width: HANDLE_PX }}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
          onKeyDown={key}
        >
          <Icon
            name={status === 'passed' ? 'check' : status === 'failed' ? 'close' : 'arrow right'}
            aria-hidden="true"
          />
        </div>
      </div>
      <p id={`${id}-help`} className="captcha-help">
        {t('captcha.keyboardHelp')}
      </p>
      {usable && (
        <button
          type="button"
          className="link-button captcha-place"
          onClick={() => void placeForMe()}
          disabled={placing}
          data-testid="captcha-place"
        >
          {t('captcha.placeForMe')}
        </button>
      )}
    </div>
  );
}
