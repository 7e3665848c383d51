import { LAYOUT_ROUTES, PUBLIC_ROUTES, matchRouteChain } from '@pm/shared';

/** The translation key of a path's title (deepest matched route with a title), if any. */
export function routeTitleKey(path: string): string | undefined {
  const chain = matchRouteChain(path, [...PUBLIC_ROUTES, ...LAYOUT_ROUTES]);
  const titled = chain.filter((r) => r.title);
  return titled.length ? `routes.${titled[titled.length - 1].title}` : undefined;
}

/** SPEC §1: translated route title + " - " + app title; the app title alone otherwise. */
export function pageTitle(path: string, t: (key: string) => string): string {
  const key = routeTitleKey(path);
  return key ? `${t(key)} - ${t('app.title')}` : t('app.title');
}
