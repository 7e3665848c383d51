import type { TFunction } from 'i18next';
import { AccountType } from '@pm/shared';
import { enumLabel } from '../../ui/utils/enumLabels';

/** The account type as SPEC §2 shows it: a phone account shows its telephone number. */
export function accountText(t: TFunction, p: { accountType: number; tel: string | null }): string {
  const label = enumLabel(t, AccountType, p.accountType);
  return p.accountType === AccountType.phone && p.tel ? `${label} (${p.tel})` : label;
}
