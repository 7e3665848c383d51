import { matchRouteChain, type RouteDef } from '@pm/shared';

export interface BreadcrumbItem {
  /** Translation key under routes. */
  title: string;
  /** Where the item links; undefined = plain text. */
  to?: string;
}

/**
 * SPEC §2: the matched routes that have a title and don't disable the breadcrumb; the last item
 * and items whose redirect is 'noRedirect' are plain text, the others link (to their redirect
 * when they have one).
 */
export function breadcrumbItems(path: string, routes?: RouteDef[]): BreadcrumbItem[] {
  const chain = matchRouteChain(path, routes).filter((r) => r.title && r.breadcrumb !== false);
  // A parent and its only child often share the title (event work orders): show it once.
  const unique = chain.filter((r, i) => i === 0 || r.title !== chain[i - 1].title);
  return unique.map((r, i) => {
    const last = i === unique.length - 1;
    return { title: r.title!, to: last || r.redirect === 'noRedirect' ? undefined : (r.redirect ?? r.path) };
  });
}
