import type { TFunction } from 'i18next';
import { revokeAnnouncement } from '../../api';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';

/** Revokes after a confirmation (SPEC §4); answers whether it was revoked. */
export async function revokeWithConfirm(t: TFunction, id: number): Promise<boolean> {
  if (!(await confirm(t('announcements.revokeConfirm')))) return false;
  await revokeAnnouncement(id);
  showToast('success', t('announcements.revokedToast'), { key: `announcement-revoke-${id}` });
  return true;
}
