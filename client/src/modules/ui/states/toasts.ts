import { proxy } from 'valtio';
import { TOAST_MS } from '@pm/shared';

export interface Toast {
  id: number;
  kind: 'success' | 'error' | 'info' | 'warning';
  text: string;
  title?: string;
  /** The chat notification opens the conversation when clicked. */
  onClick?: () => void;
}

/** Toasts and notifications on screen, newest last. */
export const toastState = proxy<{ items: Toast[] }>({ items: [] });

let nextId = 1;

/** Shows a toast; it goes away after `ms` (SPEC §9 default 1000 ms; errors stay a little longer to be read). */
export function showToast(
  kind: Toast['kind'],
  text: string,
  options: { title?: string; ms?: number; onClick?: () => void } = {},
): number {
  const id = nextId++;
  toastState.items.push({ id, kind, text, title: options.title, onClick: options.onClick });
  const ms = options.ms ?? (kind === 'error' ? 3000 : TOAST_MS * 2);
  setTimeout(() => dismissToast(id), ms);
  return id;
}

export function dismissToast(id: number): void {
  const i = toastState.items.findIndex((t) => t.id === id);
  if (i >= 0) toastState.items.splice(i, 1);
}
