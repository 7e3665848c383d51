import { useEffect, type RefObject } from 'react';
import { createFocusTrap } from 'focus-trap';

/** Form fields a dialog focuses first, when it has any. */
const FIELDS = 'input:not([type=hidden]):not([disabled]), textarea:not([disabled]), select:not([disabled])';

/**
 * While `active`, keeps keyboard focus inside the element found from `anchor` (Tab and
 * Shift+Tab cycle within it), focuses `initialFocus` (a selector), else its first form field,
 * else the element itself, and gives focus back to where it was when it ends. Nested traps
 * (a confirmation over a detail dialog) pause the outer one until they end (focus-trap's stack).
 */
export function useFocusTrap(
  anchor: RefObject<HTMLElement | null>,
  active: boolean,
  {
    container = (el: HTMLElement) => el,
    initialFocus,
  }: {
    container?: (anchor: HTMLElement) => HTMLElement | null;
    initialFocus?: string;
  } = {},
): void {
  useEffect(() => {
    const el = anchor.current && container(anchor.current);
    if (!active || !el) return;
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    const trap = createFocusTrap(el, {
      initialFocus: () =>
        (initialFocus ? el.querySelector<HTMLElement>(initialFocus) : null) ??
        el.querySelector<HTMLElement>(FIELDS) ??
        el,
      fallbackFocus: el,
      // The dialog closes itself on Escape and on a click on the dimmer; the trap only follows.
      escapeDeactivates: false,
      allowOutsideClick: true,
      returnFocusOnDeactivate: true,
      // jsdom has no layout; in a browser, hidden elements are skipped anyway by their styles.
      tabbableOptions: {
        displayCheck: typeof navigator !== 'undefined' && /jsdom/.test(navigator.userAgent) ? 'none' : 'full',
      },
    });
    trap.activate();
    return () => {
      trap.deactivate();
    };
    // The container and initial focus are fixed for a dialog's lifetime.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, anchor]);
}
