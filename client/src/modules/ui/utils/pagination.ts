/** Number of pages for a total (at least 1). */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}

/**
 * SPEC §9: after deleting rows, a page that no longer exists steps back to the last one
 * (deleting the only row of page 3 of 3 shows page 2).
 */
export function pageAfterDelete(page: number, limit: number, total: number, deleted = 1): number {
  const remaining = Math.max(0, total - deleted);
  return Math.min(page, pageCount(remaining, limit));
}
