import type { RouteDef } from '@pm/shared';

export interface MenuItem {
  path: string;
  title: string;
  icon?: string;
  children?: MenuItem[];
}

/**
 * Sidebar entries from the person's filtered routes: hidden routes are left out, and a parent
 * with a single visible child shows that child directly (one click instead of two).
 */
export function menuItems(routes: readonly RouteDef[]): MenuItem[] {
  const out: MenuItem[] = [];
  for (const r of routes) {
    if (r.hidden || !r.title) continue;
    const visible = (r.children ?? []).filter((c) => !c.hidden && c.title);
    if (visible.length === 0)
      out.push({ path: r.children?.length && r.redirect ? r.redirect : r.path, title: r.title, icon: r.icon });
    else if (visible.length === 1) out.push({ path: visible[0].path, title: visible[0].title!, icon: r.icon });
    else out.push({ path: r.path, title: r.title, icon: r.icon, children: menuItems(visible) });
  }
  return out;
}
