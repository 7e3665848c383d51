import type { MouseEvent } from 'react';

/** A left click without Ctrl, ⌘, Shift or Alt: the ones a link may handle itself instead of opening a new tab. */
export function isPlainClick(e: MouseEvent): boolean {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
}
