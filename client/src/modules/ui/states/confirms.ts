import { proxy, ref } from 'valtio';

export interface ConfirmRequest {
  id: number;
  title?: string;
  content: string;
  confirmText?: string;
  cancelText?: string;
  resolve: (ok: boolean) => void;
}

/** Open confirmation dialogs (risky actions ask first, SPEC §5). */
export const confirmState = proxy<{ open: ConfirmRequest[] }>({ open: [] });
let nextId = 1;

/** Asks the person; resolves true on confirm, false on cancel. */
export function confirm(
  content: string,
  options: Omit<ConfirmRequest, 'id' | 'content' | 'resolve'> = {},
): Promise<boolean> {
  return new Promise((resolve) => {
    confirmState.open.push({ id: nextId++, content, ...options, resolve: ref(resolve) as (ok: boolean) => void });
  });
}

export function answerConfirm(id: number, ok: boolean): void {
  const i = confirmState.open.findIndex((c) => c.id === id);
  if (i < 0) return;
  const [c] = confirmState.open.splice(i, 1);
  c.resolve(ok);
}
