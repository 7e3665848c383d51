import { useCallback, useRef } from 'react';

/** Within this many pixels of its end the history counts as at the bottom (react-virtuoso's `atBottomThreshold`). */
export const AT_BOTTOM_PX = 40;

/**
 * Whether an open conversation follows its newest message (SPEC §7: a new message scrolls the
 * history down only when the person was at the bottom; otherwise the "new messages" marker).
 *
 * The history leaves "following" only when its scroll position moved up, not whenever the list
 * reports "not at the bottom" (issue 31). The list says that also when its rows grew under a
 * person who never scrolled: the resident panel appearing beside a just-opened history narrows it
 * and its messages wrap onto more lines, and on a busy machine avatars and fonts arrive late.
 * react-virtuoso goes back down by itself only for growth within 100 ms of new data, so the
 * history stayed short of its end, and the next message was taken for one that came "while the
 * person read older ones": not scrolled to, and not even rendered (below the drawn range).
 * A "not at the bottom" with the position where it was is layout: the history goes back down.
 */
export function useFollowBottom(scrollToLast: () => void) {
  const following = useRef(true);
  const scroller = useRef<HTMLElement | null>(null);
  /** scrollTop the last time the history was seen at its bottom (null: not yet, on opening). */
  const bottomTop = useRef<number | null>(null);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight <= AT_BOTTOM_PX) bottomTop.current = el.scrollTop;
  }, []);

  /** For react-virtuoso's `scrollerRef`. */
  const scrollerRef = useCallback(
    (el: HTMLElement | Window | null) => {
      scroller.current?.removeEventListener('scroll', onScroll);
      scroller.current = el instanceof HTMLElement ? el : null;
      scroller.current?.addEventListener('scroll', onScroll, { passive: true });
    },
    [onScroll],
  );

  /** For react-virtuoso's `atBottomStateChange`. */
  const onAtBottom = useCallback(
    (bottom: boolean) => {
      const el = scroller.current;
      if (bottom) {
        following.current = true;
        if (el) bottomTop.current = el.scrollTop;
        return;
      }
      const movedUp = el !== null && bottomTop.current !== null && el.scrollTop < bottomTop.current - 1;
      if (movedUp) following.current = false;
      else if (following.current) scrollToLast();
    },
    [scrollToLast],
  );

  /** For react-virtuoso's `followOutput`: its own "at the bottom" may be a layout change's. */
  const followOutput = useCallback(() => (following.current ? ('auto' as const) : false), []);
  const isFollowing = useCallback(() => following.current, []);

  return { isFollowing, onAtBottom, scrollerRef, followOutput };
}
