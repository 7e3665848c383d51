import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_MS } from '@pm/shared';
import { ERROR_TOAST_MS, dismissToast, pauseToast, resumeToast, showToast, toastState } from '../states/toasts';

const texts = () => toastState.items.map((t) => t.text);

describe('toasts (SPEC §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    for (const t of [...toastState.items]) dismissToast(t.id);
    vi.useRealTimers();
  });

  it('when a confirmation shows, then it goes after the default 1000 ms; an error stays 5 s', () => {
    showToast('success', 'Saved');
    showToast('error', 'Failed');
    vi.advanceTimersByTime(TOAST_MS - 1);
    expect(texts()).toEqual(['Saved', 'Failed']);
    vi.advanceTimersByTime(1);
    expect(texts()).toEqual(['Failed']);
    vi.advanceTimersByTime(ERROR_TOAST_MS - TOAST_MS);
    expect(texts()).toEqual([]);
  });

  it('when the pointer rests on a toast, then it stays; when it leaves, the rest of the time runs (at least a moment)', () => {
    const id = showToast('error', 'Failed');
    vi.advanceTimersByTime(4000);
    pauseToast(id);
    vi.advanceTimersByTime(60_000);
    expect(texts()).toEqual(['Failed']);
    resumeToast(id);
    vi.advanceTimersByTime(TOAST_MS - 1);
    expect(texts()).toEqual(['Failed']);
    vi.advanceTimersByTime(1);
    expect(texts()).toEqual([]);
  });

  it('when a toast with the key of one on screen shows, then it replaces it: one action, one toast', () => {
    showToast('info', 'A complaint changed its status', { key: 'workorders:complaint:7:2' });
    showToast('success', 'It is now being processed', { key: 'workorders:complaint:7:2' });
    showToast('info', 'Something else');
    expect(texts()).toEqual(['It is now being processed', 'Something else']);
  });
});
