import type { WorkRow } from '../../api';

/** SPEC §3 "Unit display": building/floor/unit, or the car park code, or the shop code. */
export function unitDisplay(
  r: Pick<WorkRow, 'buildName' | 'floorName' | 'unitName' | 'carParkCode' | 'shopCode'>,
): string {
  if (r.unitName) return [r.buildName, r.floorName, r.unitName].filter(Boolean).join(' / ');
  return r.carParkCode ?? r.shopCode ?? '';
}

/** `yyyy-MM-dd HH:mm` in the browser's time zone, '' for nothing. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** `;`-joined upload paths → a list. */
export const mediaList = (joined: string | null | undefined): string[] =>
  (joined ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);

/** Which actions a row offers (SPEC §4): deal only when untreated, complete only when processing, both need update. */
export function actionsFor(status: number, canUpdate: boolean): { deal: boolean; complete: boolean } {
  return { deal: canUpdate && status === 1, complete: canUpdate && status === 2 };
}
