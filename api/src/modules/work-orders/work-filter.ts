/**
 * Filters of the list (SPEC §2): status, work-order type, keyword, report days, house type. A file
 * of its own: the kept pages (kept-lists.ts) key on them without importing the repository (that
 * would close an import cycle through app-services.ts).
 */
export interface WorkFilter {
  status?: number;
  type?: number;
  keyword?: string;
  startTime?: string;
  endTime?: string;
  houseType?: number;
}
