import { describe, expect, it } from 'vitest';
import { filterRoutes, flattenRoutes, LAYOUT_ROUTES, matchRouteChain } from '../routes';
import { PERMISSIONS } from '../permissions';
import { parseLanguage } from '../enums';

describe('route table', () => {
  it('when every route is listed, then each permission is a known code', () => {
    for (const r of flattenRoutes()) if (r.permission) expect(PERMISSIONS).toContain(r.permission);
  });

  it('when a role has only complain:list, then complaints stay and event work orders go', () => {
    const paths = flattenRoutes(filterRoutes(LAYOUT_ROUTES, new Set(['complain:list']), 'STAFF')).map((r) => r.path);
    expect(paths).toContain('/complaints-suggestions/index');
    expect(paths).not.toContain('/event-work-order/index');
    expect(paths).not.toContain('/enterprise-management/index');
  });

  it('when the role value contains ADMIN, then enterprise management is kept', () => {
    const paths = flattenRoutes(filterRoutes(LAYOUT_ROUTES, new Set(), 'ROLE_ADMIN')).map((r) => r.path);
    expect(paths).toContain('/enterprise-management/index');
  });

  it('when a parent loses all its children, then the parent goes too', () => {
    const paths = filterRoutes(LAYOUT_ROUTES, new Set(), 'STAFF').map((r) => r.path);
    expect(paths).not.toContain('/instant-messaging');
    expect(paths).toContain('/dashboard');
  });

  it('when a nested path is matched, then the chain runs from the parent to the leaf', () => {
    expect(matchRouteChain('/building-management/unit-management').map((r) => r.path)).toEqual([
      '/building-management',
      '/building-management/unit-management',
    ]);
    expect(matchRouteChain('/nowhere')).toEqual([]);
  });
});

describe('parseLanguage', () => {
  it.each([
    ['zh-TW', 'zh-TW'],
    ['ZH_TW', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-CN', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['en-US', 'en'],
    ['fr', undefined],
    [undefined, undefined],
  ])('when %s is given, then %s', (input, expected) => {
    expect(parseLanguage(input)).toBe(expected);
  });
});
