import { proxy } from 'valtio';
import type { EstateInfo } from '@pm/shared';
import { session } from '../../auth/states/session';
import { setDisplayTimeZone } from '../../ui/utils/formatTime';

/**
 * The signed-in person's estate as its settings stand (basic set-up, issue 33): the sidebar's
 * name and logo, the time zone every time is shown in, the vote reminder unit. Loaded when the
 * tab connects and replaced by every `estate` live event, so a change shows at once everywhere.
 */
export const estateInfo = proxy<{ info: EstateInfo | null }>({ info: null });

/** Takes new settings: the time zone moves to the session (the screens count days in it). */
export function applyEstateInfo(info: EstateInfo): void {
  estateInfo.info = info;
  if (session.timeZone !== info.timeZone) {
    session.timeZone = info.timeZone;
    setDisplayTimeZone(info.timeZone);
  }
}

export function clearEstateInfo(): void {
  estateInfo.info = null;
}
