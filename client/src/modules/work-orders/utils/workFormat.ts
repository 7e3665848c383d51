import { LIST_SEPARATOR, WorkStatus } from '@pm/shared';

/** `;`-joined upload paths → a list. */
export const mediaList = (joined: string | null | undefined): string[] =>
  (joined ?? '')
    .split(LIST_SEPARATOR)
    .map((s) => s.trim())
    .filter(Boolean);

/** Which actions a row offers (SPEC §4): deal only when untreated, complete only when processing, both need update. */
export function actionsFor(status: number, canUpdate: boolean): { deal: boolean; complete: boolean } {
  return {
    deal: canUpdate && status === WorkStatus.untreated,
    complete: canUpdate && status === WorkStatus.processing,
  };
}
