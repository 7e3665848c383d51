import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { useFollowBottom } from '../hooks/useFollowBottom';

// Issue 31: an open conversation stops following its newest message only when the person moved
// up, not when the list reports "not at the bottom" because its rows grew (a panel appearing
// beside it, pictures and fonts arriving late).

afterEach(cleanup);

/** A scroller whose sizes the test sets (jsdom lays nothing out). */
function scroller(height: number, client = 400) {
  const el = document.createElement('div');
  const box = { scrollTop: height - client, scrollHeight: height, clientHeight: client };
  for (const key of Object.keys(box) as (keyof typeof box)[]) {
    Object.defineProperty(el, key, { get: () => box[key], set: (v: number) => (box[key] = v), configurable: true });
  }
  const scrollTo = (top: number) => {
    box.scrollTop = top;
    el.dispatchEvent(new Event('scroll'));
  };
  return { el, box, scrollTo };
}

function follow() {
  const scrolledDown = { count: 0 };
  const hook = renderHook(() => useFollowBottom(() => scrolledDown.count++));
  return { hook, scrolledDown, api: () => hook.result.current };
}

describe('useFollowBottom (issue 31)', () => {
  it('when the rows grow under a person at the bottom, then it goes back down and still follows new messages', () => {
    const { api, scrolledDown } = follow();
    const s = scroller(1000);
    act(() => api().scrollerRef(s.el));
    act(() => api().onAtBottom(true));
    // The resident panel narrows the history: its messages wrap, the list is 300 px taller.
    s.box.scrollHeight = 1300;
    act(() => api().onAtBottom(false));
    expect(scrolledDown.count).toBe(1);
    expect(api().isFollowing()).toBe(true);
    expect(api().followOutput()).toBe('auto');
  });

  it('when the list reports "not at the bottom" before it ever got there (opening), then it goes down', () => {
    const { api, scrolledDown } = follow();
    const s = scroller(1000);
    s.box.scrollTop = 0;
    act(() => api().scrollerRef(s.el));
    act(() => api().onAtBottom(false));
    expect(scrolledDown.count).toBe(1);
    expect(api().isFollowing()).toBe(true);
  });

  it('when the person scrolls up, then it stops following; back at the bottom, it follows again', () => {
    const { api, scrolledDown } = follow();
    const s = scroller(1000);
    act(() => api().scrollerRef(s.el));
    act(() => api().onAtBottom(true));
    // A little (within the bottom's 40 px), then further up.
    s.scrollTo(580);
    s.scrollTo(200);
    act(() => api().onAtBottom(false));
    expect(scrolledDown.count).toBe(0);
    expect(api().isFollowing()).toBe(false);
    expect(api().followOutput()).toBe(false);
    s.scrollTo(600);
    act(() => api().onAtBottom(true));
    expect(api().isFollowing()).toBe(true);
  });

  it('when new messages were followed and the person then scrolls up a little past the bottom, then it stops following', () => {
    const { api } = follow();
    const s = scroller(1000);
    act(() => api().scrollerRef(s.el));
    act(() => api().onAtBottom(true));
    // Two messages arrived and were followed: the bottom is now further down.
    s.box.scrollHeight = 1200;
    s.scrollTo(800);
    s.scrollTo(700);
    act(() => api().onAtBottom(false));
    expect(api().isFollowing()).toBe(false);
  });
});
