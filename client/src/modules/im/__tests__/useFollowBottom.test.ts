import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { useFollowBottom } from '../hooks/useFollowBottom';

// Issue 31: an open conversation stops following its newest message only when the person
// scrolled, not when the list reports "not at the bottom" because its rows grew under them (a
// panel appearing beside it, pictures and fonts arriving late).

afterEach(cleanup);

function follow() {
  const scrolledDown = { count: 0 };
  const hook = renderHook(() => useFollowBottom(() => scrolledDown.count++));
  const scroller = document.createElement('div');
  scroller.appendChild(document.createElement('button'));
  act(() => hook.result.current.scrollerRef(scroller));
  return { scroller, scrolledDown, api: () => hook.result.current };
}

describe('useFollowBottom (issue 31)', () => {
  it('when the list leaves the bottom with no scrolling by the person, then it goes back down and still follows', () => {
    const { api, scrolledDown } = follow();
    act(() => api().onAtBottom(true));
    // The resident panel narrows the history: its messages wrap, the list grows below the view.
    act(() => api().onAtBottom(false));
    expect(scrolledDown.count).toBe(1);
    expect(api().isFollowing()).toBe(true);
    expect(api().followOutput()).toBe('auto');
  });

  it('when the list reports "not at the bottom" before it ever got there (opening), then it goes down', () => {
    const { api, scrolledDown } = follow();
    act(() => api().onAtBottom(false));
    expect(scrolledDown.count).toBe(1);
    expect(api().isFollowing()).toBe(true);
  });

  for (const gesture of ['wheel', 'touchmove', 'keydown', 'pointerdown']) {
    it(`when the person scrolls up (${gesture}), then it stops following; back at the bottom, it follows again`, () => {
      const { api, scroller, scrolledDown } = follow();
      act(() => api().onAtBottom(true));
      scroller.dispatchEvent(new Event(gesture, { bubbles: true }));
      act(() => api().onAtBottom(false));
      expect(scrolledDown.count).toBe(0);
      expect(api().isFollowing()).toBe(false);
      expect(api().followOutput()).toBe(false);
      act(() => api().onAtBottom(true));
      expect(api().isFollowing()).toBe(true);
      // Reaching the bottom starts afresh: a later layout change is not taken for the person's.
      act(() => api().onAtBottom(false));
      expect(scrolledDown.count).toBe(1);
      expect(api().isFollowing()).toBe(true);
    });
  }

  it('when the person presses a button in a message (not the scrollbar), then that is no scroll', () => {
    const { api, scroller, scrolledDown } = follow();
    act(() => api().onAtBottom(true));
    scroller.firstChild!.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    act(() => api().onAtBottom(false));
    expect(scrolledDown.count).toBe(1);
    expect(api().isFollowing()).toBe(true);
  });
});
