import { useCallback, useRef } from 'react';

/** Within this many pixels of its end the history counts as at the bottom (react-virtuoso's `atBottomThreshold`). */
export const AT_BOTTOM_PX = 40;

/** What a person does to scroll a history: the wheel, a finger, keys, the scrollbar. */
const GESTURES = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const;

/**
 * Whether an open conversation follows its newest message (SPEC §7: a new message scrolls the
 * history down only when the person was at the bottom; otherwise the "new messages" marker).
 *
 * The history stops following only when the person scrolled it, not whenever the list reports
 * "not at the bottom" (issue 31). The list says that also when its rows grew or moved under a
 * person who never touched it: the resident panel appearing beside a just-opened history narrows
 * it and its messages wrap onto more lines, and on a busy machine avatars and fonts arrive late.
 * react-virtuoso goes back down by itself only for growth within 100 ms of new data, so the history
 * stayed short of its end, and the next message was taken for one that came while the person read
 * older ones: not scrolled to, and not even drawn (below the rendered range). Its scroll position
 * cannot tell the two apart (the list corrects it for rows resized above the view), the person's
 * own input can: a "not at the bottom" with no wheel, touch, key or scrollbar press since the
 * history was last at its bottom is layout, and the history goes back down.
 */
export function useFollowBottom(scrollToLast: () => void) {
  const following = useRef(true);
  const scroller = useRef<HTMLElement | null>(null);
  /** The person scrolled (or may have) since the history was last at its bottom. */
  const personScrolled = useRef(false);

  const onGesture = useCallback((e: Event) => {
    // A press on the scroller itself is its scrollbar; a press on a message (a link, a picture) is not a scroll.
    if (e.type === 'pointerdown' && e.target !== scroller.current) return;
    personScrolled.current = true;
  }, []);

  /** For react-virtuoso's `scrollerRef`. */
  const scrollerRef = useCallback(
    (el: HTMLElement | Window | null) => {
      for (const type of GESTURES) scroller.current?.removeEventListener(type, onGesture);
      scroller.current = el instanceof HTMLElement ? el : null;
      for (const type of GESTURES) scroller.current?.addEventListener(type, onGesture, { passive: true });
    },
    [onGesture],
  );

  /** For react-virtuoso's `atBottomStateChange`. */
  const onAtBottom = useCallback(
    (bottom: boolean) => {
      if (bottom) {
        following.current = true;
        personScrolled.current = false;
      } else if (personScrolled.current) following.current = false;
      else if (following.current) scrollToLast();
    },
    [scrollToLast],
  );

  /** For react-virtuoso's `followOutput`: its own "at the bottom" may be a layout change's. */
  const followOutput = useCallback(() => (following.current ? ('auto' as const) : false), []);
  const isFollowing = useCallback(() => following.current, []);

  return { isFollowing, onAtBottom, scrollerRef, followOutput };
}
