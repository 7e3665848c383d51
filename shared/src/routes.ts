import type { Permission } from './permissions';

/**
 * The route table of SPEC §2. The client builds its router and sidebar from it and the api
 * seeds its menus from it, so both agree on paths, titles and permissions.
 */
export interface RouteDef {
  /** Absolute path. */
  path: string;
  /** Translation key of the title under `routes.` in locales/; absent = no title. */
  title?: string;
  /** Permission code a menu of the role must carry (SPEC §6). Absent or '' = none needed. */
  permission?: Permission | '';
  /** Not shown in the sidebar. */
  hidden?: boolean;
  /** Role values allowed (containment match); absent = any role. */
  roles?: string[];
  /** Where the path itself redirects. */
  redirect?: string;
  /** false = not listed in the breadcrumb. */
  breadcrumb?: boolean;
  /** Sidebar icon name (semantic-ui). */
  icon?: string;
  children?: RouteDef[];
}

export const PUBLIC_ROUTES: RouteDef[] = [
  { path: '/login', title: 'login', hidden: true },
  { path: '/forget-password', title: 'forgetPassword', hidden: true },
  { path: '/404', title: 'notFound', hidden: true },
  { path: '/redirect/*', hidden: true },
];

/** Paths a visitor who is not signed in may open. */
export const WHITELIST = ['/login', '/forget-password', '/404'];

export const LAYOUT_ROUTES: RouteDef[] = [
  {
    path: '/dashboard',
    title: 'dashboard',
    icon: 'dashboard',
    children: [{ path: '/dashboard/historical-message', title: 'historicalMessage', hidden: true }],
  },
  {
    path: '/building-management',
    title: 'buildingManagement',
    icon: 'building',
    redirect: '/building-management/owner-review',
    breadcrumb: false,
    children: [
      { path: '/building-management/owner-review', title: 'ownerReview', hidden: true },
      { path: '/building-management/unit-management', title: 'unitManagement', permission: 'unit:list' },
      { path: '/building-management/park-space-management', title: 'parkSpaceManagement', permission: 'carpark:list' },
      { path: '/building-management/merchant-management', title: 'merchantManagement', permission: 'shop:list' },
    ],
  },
  {
    path: '/announcement-management',
    title: 'announcementManagement',
    icon: 'bullhorn',
    permission: 'bulletin:list',
    redirect: '/announcement-management/index',
    children: [
      { path: '/announcement-management/index', title: 'announcementList', permission: 'bulletin:list' },
      {
        path: '/announcement-management/add-announcement',
        title: 'addAnnouncement',
        hidden: true,
        permission: 'bulletin:list',
      },
      {
        path: '/announcement-management/announcement-detail',
        title: 'announcementDetail',
        hidden: true,
        permission: 'bulletin:list',
      },
      {
        path: '/announcement-management/revoke-announcement',
        title: 'revokeAnnouncement',
        hidden: true,
        permission: 'bulletin:list',
      },
    ],
  },
  {
    path: '/event-work-order',
    title: 'eventWorkOrder',
    icon: 'wrench',
    redirect: '/event-work-order/index',
    permission: 'eventorder:list',
    children: [{ path: '/event-work-order/index', title: 'eventWorkOrder', permission: 'eventorder:list' }],
  },
  {
    path: '/complaints-suggestions',
    title: 'complaintsSuggestions',
    icon: 'comment alternate',
    redirect: '/complaints-suggestions/index',
    permission: 'complain:list',
    children: [{ path: '/complaints-suggestions/index', title: 'complaintsSuggestions', permission: 'complain:list' }],
  },
  {
    path: '/disaster-warning',
    title: 'disasterWarning',
    icon: 'warning sign',
    redirect: '/disaster-warning/disaster-release',
    children: [
      { path: '/disaster-warning/disaster-release', title: 'disasterRelease', permission: 'disasterwarn:list' },
      {
        path: '/disaster-warning/add-disaster-warning',
        title: 'addDisasterWarning',
        hidden: true,
        permission: 'disasterwarn:list',
      },
      { path: '/disaster-warning/alert-detail', title: 'alertDetail', hidden: true, permission: 'disasterwarn:view' },
      {
        path: '/disaster-warning/disaster-declaration',
        title: 'disasterDeclaration',
        hidden: true,
        permission: 'disasterreport:list',
      },
    ],
  },
  {
    path: '/check-in',
    title: 'checkIn',
    icon: 'clock',
    hidden: true,
    permission: '',
    redirect: '/check-in/personnel-monitoring',
    children: [
      { path: '/check-in/personnel-monitoring', title: 'personnelMonitoring' },
      { path: '/check-in/punch-record', title: 'punchRecord' },
      { path: '/check-in/missing-card-record', title: 'missingCardRecord' },
      { path: '/check-in/check-in-rule-settings', title: 'checkInRuleSettings' },
    ],
  },
  {
    path: '/instant-messaging',
    title: 'instantMessaging',
    icon: 'chat',
    permission: 'im:list',
    redirect: '/instant-messaging/chat',
    children: [
      { path: '/instant-messaging/chat', title: 'chat', permission: 'im:list' },
      { path: '/instant-messaging/address-book', title: 'addressBook', permission: 'im:list' },
      { path: '/instant-messaging/address-book-settings', title: 'addressBookSettings', permission: 'im:list' },
    ],
  },
  {
    path: '/enterprise-management/index',
    title: 'enterpriseManagement',
    icon: 'sitemap',
    hidden: true,
    roles: ['ADMIN'],
  },
  // Hidden (SPEC §2): opened from the settings drawer. Their codes are not SPEC's (issue 33, README).
  { path: '/basic-set-up/index', title: 'basicSetUp', icon: 'setting', hidden: true, permission: 'estate:settings' },
  { path: '/ad-settings/index', title: 'adSettings', icon: 'image', hidden: true, permission: 'ad:list' },
  // The full-screen wall display (issue 22): outside the sidebar frame, for roles with wall:view.
  { path: '/wall', title: 'wallScreen', icon: 'tv', hidden: true, permission: 'wall:view' },
];

/** Every route, depth first, parents before children. */
export function flattenRoutes(routes: RouteDef[] = LAYOUT_ROUTES): RouteDef[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children ?? [])]);
}

/** SPEC §6: a route is kept if it needs no permission or the role has it, and its role list (if any) matches. */
export function isRouteAllowed(route: RouteDef, perms: ReadonlySet<string>, roleValue: string): boolean {
  if (route.permission && !perms.has(route.permission)) return false;
  if (route.roles && !route.roles.some((r) => roleValue.toUpperCase().includes(r.toUpperCase()))) return false;
  return true;
}

/** The route tree a person may use: disallowed routes are removed, and parents left without children too. */
export function filterRoutes(routes: RouteDef[], perms: ReadonlySet<string>, roleValue: string): RouteDef[] {
  const out: RouteDef[] = [];
  for (const r of routes) {
    if (!isRouteAllowed(r, perms, roleValue)) continue;
    if (r.children) {
      const children = filterRoutes(r.children, perms, roleValue);
      if (children.length === 0 && r.children.length > 0) continue;
      out.push({ ...r, children });
    } else out.push(r);
  }
  return out;
}

/** The chain of routes (outermost first) that matches a path, for breadcrumbs and titles. */
export function matchRouteChain(path: string, routes: RouteDef[] = LAYOUT_ROUTES): RouteDef[] {
  const clean = path.split('?')[0].replace(/\/+$/, '') || '/';
  for (const r of routes) {
    if (r.path === clean) return [r];
    if (r.children && clean.startsWith(r.path + '/')) {
      const chain = matchRouteChain(clean, r.children);
      if (chain.length) return [r, ...chain];
    }
  }
  return [];
}
