import { proxy } from 'valtio';
import { TOAST_MS } from '@pm/shared';

export interface Toast {
  id: number;
  kind: 'success' | 'error' | 'info' | 'warning';
  text: string;
  title?: string;
  /** Toasts with the same key are one toast: a newer one replaces the one on screen. */
  key?: string;
  /** The chat notification opens the conversation when clicked. */
  onClick?: () => void;
}

/** How long an error stays: long enough to be read (SPEC §9's 1000 ms is for confirmations). */
export const ERROR_TOAST_MS = 5000;

/** Toasts and notifications on screen, newest last. */
export const toastState = proxy<{ items: Toast[] }>({ items: [] });

/** Each toast's countdown: paused while the pointer rests on it. */
const timers = new Map<number, { left: number; startedAt: number; handle?: ReturnType<typeof setTimeout> }>();

let nextId = 1;

function run(id: number): void {
  const timer = timers.get(id);
  if (!timer) return;
  timer.startedAt = Date.now();
  timer.handle = setTimeout(() => dismissToast(id), timer.left);
}

/**
 * Shows a toast; it goes away after `ms`: SPEC §9's 1000 ms by default, errors 5 s. A toast
 * with the `key` of one on screen replaces it (one action, one toast).
 */
export function showToast(
  kind: Toast['kind'],
  text: string,
  options: { title?: string; ms?: number; onClick?: () => void; key?: string } = {},
): number {
  if (options.key) {
    const same = toastState.items.find((t) => t.key === options.key);
    if (same) dismissToast(same.id);
  }
  const id = nextId++;
  toastState.items.push({ id, kind, text, title: options.title, key: options.key, onClick: options.onClick });
  timers.set(id, { left: options.ms ?? (kind === 'error' ? ERROR_TOAST_MS : TOAST_MS), startedAt: Date.now() });
  run(id);
  return id;
}

/** The pointer rests on a toast: it stays until the pointer leaves. */
export function pauseToast(id: number): void {
  const timer = timers.get(id);
  if (!timer?.handle) return;
  clearTimeout(timer.handle);
  timer.handle = undefined;
  timer.left = Math.max(0, timer.left - (Date.now() - timer.startedAt));
}

/** The pointer left: the rest of its time, and at least a moment to move back. */
export function resumeToast(id: number): void {
  const timer = timers.get(id);
  if (!timer || timer.handle) return;
  timer.left = Math.max(timer.left, TOAST_MS);
  run(id);
}

export function dismissToast(id: number): void {
  const timer = timers.get(id);
  if (timer?.handle) clearTimeout(timer.handle);
  timers.delete(id);
  const i = toastState.items.findIndex((t) => t.id === id);
  if (i >= 0) toastState.items.splice(i, 1);
}
