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
  // jsdom lays nothing out: the sizes are the test's (a list of 1,000 px in a 400 px view, at its end).
  const scroller = document.createElement('div');
  scroller.appendChild(document.createElement('button'));
  const box = { scrollHeight: 1000, scrollTop: 600, clientHeight: 400 };
  for (const key of Object.keys(box) as (keyof typeof box)[]) {
    Object.defineProperty(scroller, key, { get: () => box[key], configurable: true });
  }
  act(() => hook.result.current.scrollerRef(scroller));
  return { scroller, box, scrolledDown, api: () => hook.result.current };
}

describe('useFollowBottom (issue 31)', () => {
  it('when the list leaves the bottom with no scrolling by the person, then it goes back down and still follows', () => {
    const { api, box, scrolledDown } = follow();
    act(() => api().onAtBottom(true));
    // The resident panel narrows the history: its messages wrap, the list grows below the view.
    box.scrollHeight = 1300;
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
      const { api, box, scroller, scrolledDown } = follow();
      act(() => api().onAtBottom(true));
      scroller.dispatchEvent(new Event(gesture, { bubbles: true }));
      // Even while the list also grew (older rows measured as they come into view).
      box.scrollHeight = 1300;
      act(() => api().onAtBottom(false));
      expect(scrolledDown.count).toBe(0);
      expect(api().isFollowing()).toBe(false);
      expect(api().followOutput()).toBe(false);
      act(() => api().onAtBottom(true));
      expect(api().isFollowing()).toBe(true);
      // Reaching the bottom starts afresh: a later layout change is not taken for the person's.
      box.scrollHeight = 1500;
      act(() => api().onAtBottom(false));
      expect(scrolledDown.count).toBe(1);
      expect(api().isFollowing()).toBe(true);
    });
  }

  it('when the person presses a button in a message (not the scrollbar), then that is no scroll', () => {
    const { api, box, scroller, scrolledDown } = follow();
    act(() => api().onAtBottom(true));
    scroller.firstChild!.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    box.scrollHeight = 1300;
    act(() => api().onAtBottom(false));
    expect(scrolledDown.count).toBe(1);
    expect(api().isFollowing()).toBe(true);
  });

  it('when it is scrolled up with no gesture and the list did not grow (focus moved into it, a search on the page), then it stops following', () => {
    const { api, box, scrolledDown } = follow();
    act(() => api().onAtBottom(true));
    box.scrollTop = 100;
    act(() => api().onAtBottom(false));
    expect(scrolledDown.count).toBe(0);
    expect(api().isFollowing()).toBe(false);
  });
});
