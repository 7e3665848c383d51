import { useCallback, useRef } from 'react';

/** Within this many pixels of its end the history counts as at the bottom (react-virtuoso's `atBottomThreshold`). */
export const AT_BOTTOM_PX = 40;

/** What a person does to scroll a history: the wheel, a finger, keys, the scrollbar. */
const GESTURES = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const;

/**
 * Whether an open conversation follows its newest message (SPEC §7: a new message scrolls the
 * history down only when the person was at the bottom; otherwise the "new messages" marker).
 *
 * The history stops following when it was scrolled up, not whenever the list reports "not at the
 * bottom" (issue 31). The list says that also when its rows grew under a person who never touched
 * it: the resident panel appearing beside a just-opened history narrows it and its messages wrap
 * onto more lines, and on a busy machine avatars and fonts arrive late. react-virtuoso goes back
 * down by itself only for growth within 100 ms of new data, so the history stayed short of its end,
 * and the next message was taken for one that came while the person read older ones: not scrolled
 * to, and not even drawn (below the rendered range). So: the person's wheel, touch, key or
 * scrollbar press since the history was last at its bottom ends following; without one, a list
 * taller than it was at the bottom is layout (back down), and one scrolled up otherwise (focus
 * moved into it, a search on the page) ends following.
 */
export function useFollowBottom(scrollToLast: () => void) {
  const following = useRef(true);
  const scroller = useRef<HTMLElement | null>(null);
  /** The person scrolled (or may have) since the history was last at its bottom. */
  const personScrolled = useRef(false);
  /** The list's height the last time it was seen at its bottom (null: not yet, on opening). */
  const bottomHeight = useRef<number | null>(null);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (el && following.current && el.scrollHeight - el.scrollTop - el.clientHeight <= AT_BOTTOM_PX)
      bottomHeight.current = el.scrollHeight;
  }, []);

  const onGesture = useCallback((e: Event) => {
    // A press on the scroller itself is its scrollbar; a press on a message (a link, a picture) is not a scroll.
    if (e.type === 'pointerdown' && e.target !== scroller.current) return;
    personScrolled.current = true;
  }, []);

  /** For react-virtuoso's `scrollerRef`. */
  const scrollerRef = useCallback(
    (el: HTMLElement | Window | null) => {
      for (const type of GESTURES) scroller.current?.removeEventListener(type, onGesture);
      scroller.current?.removeEventListener('scroll', onScroll);
      scroller.current = el instanceof HTMLElement ? el : null;
      for (const type of GESTURES) scroller.current?.addEventListener(type, onGesture, { passive: true });
      scroller.current?.addEventListener('scroll', onScroll, { passive: true });
    },
    [onGesture, onScroll],
  );

  /** For react-virtuoso's `atBottomStateChange`. */
  const onAtBottom = useCallback(
    (bottom: boolean) => {
      const el = scroller.current;
      if (bottom) {
        following.current = true;
        personScrolled.current = false;
        bottomHeight.current = el?.scrollHeight ?? null;
        return;
      }
      if (!following.current) return;
      const grew = bottomHeight.current === null || !el || el.scrollHeight > bottomHeight.current;
      if (personScrolled.current || !grew) following.current = false;
      else scrollToLast();
    },
    [scrollToLast],
  );

  /** For react-virtuoso's `followOutput`: its own "at the bottom" may be a layout change's. */
  const followOutput = useCallback(() => (following.current ? ('auto' as const) : false), []);
  const isFollowing = useCallback(() => following.current, []);

  return { isFollowing, onAtBottom, scrollerRef, followOutput };
}
