/** SPEC §2 announcement-detail: one announcement by `?open=<id>`, as every View link opens a record. */
export const DETAIL_PATH = '/announcement-management/announcement-detail';

/** The deep link of an announcement's detail, on a tab (`null`: its content). */
export function detailPath(id: number, tab: string | null = null): string {
  return `${DETAIL_PATH}?open=${id}${tab ? `&tab=${tab}` : ''}`;
}
