import { LAYOUT_ROUTES, PERMISSIONS, flattenRoutes, type RouteDef } from '@pm/shared';
import type { DbOrTx } from '../db/open-database';
import { sysMenu } from '../db/schema';

/** The page whose screen holds the buttons guarded by a permission not named on any route. */
const BUTTON_PARENT: Record<string, string> = {
  complain: '/complaints-suggestions/index',
  eventorder: '/event-work-order/index',
  unit: '/building-management/unit-management',
  carpark: '/building-management/park-space-management',
  shop: '/building-management/merchant-management',
  disasterwarn: '/disaster-warning/disaster-release',
  disasterreport: '/disaster-warning/disaster-declaration',
  im: '/instant-messaging/chat',
  bulletin: '/announcement-management/index',
  system: '/enterprise-management/index',
  checkin: '/check-in/personnel-monitoring',
};

/**
 * The menu table is the shared route table (one menu per route, perms = its permission) plus
 * one button menu per permission code no route carries (complain:view, system:role, …).
 * Global and idempotent: missing menus are added on every start.
 */
export async function ensureMenus(db: DbOrTx): Promise<void> {
  const existing = await db.select({ id: sysMenu.id, path: sysMenu.path, perms: sysMenu.perms }).from(sysMenu);
  const ids = new Map(existing.map((m) => [`${m.path}|${m.perms}`, m.id]));
  const idOfPage = new Map<string, number>();
  let sort = 0;
  const addRoute = async (route: RouteDef, parentId: number | null) => {
    const perms = route.permission ?? '';
    let id = ids.get(`${route.path}|${perms}`);
    if (id === undefined) {
      [{ id }] = await db
        .insert(sysMenu)
        .values({
          parentId,
          name: route.title ?? route.path,
          path: route.path,
          perms,
          hidden: !!route.hidden,
          icon: route.icon,
          menuType: 1,
          sort,
        })
        .returning({ id: sysMenu.id });
    }
    sort++;
    idOfPage.set(route.path, id);
    for (const child of route.children ?? []) await addRoute(child, id);
  };
  for (const route of LAYOUT_ROUTES) await addRoute(route, null);

  const onRoutes = new Set(
    flattenRoutes()
      .map((r) => r.permission)
      .filter(Boolean),
  );
  for (const perm of PERMISSIONS) {
    if (onRoutes.has(perm)) continue;
    const parentPath = BUTTON_PARENT[perm.split(':')[0]];
    if (ids.has(`${parentPath}|${perm}`)) continue;
    await db.insert(sysMenu).values({
      parentId: idOfPage.get(parentPath) ?? null,
      name: perm,
      path: parentPath,
      perms: perm,
      hidden: true,
      menuType: 2,
      sort: sort++,
    });
  }
}
