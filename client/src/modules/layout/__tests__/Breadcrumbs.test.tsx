import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { RouteDef } from '@pm/shared';
import '../../i18n/i18n';
import { Breadcrumbs } from '../components/Breadcrumbs';
import { breadcrumbItems } from '../utils/breadcrumbItems';
import { pageTitle } from '../utils/pageTitle';
import { i18n } from '../../i18n/i18n';

afterEach(cleanup);

describe('breadcrumb', () => {
  it('when a route turns its breadcrumb off, then it is left out', () => {
    expect(breadcrumbItems('/building-management/unit-management')).toEqual([
      { title: 'unitManagement', to: undefined },
    ]);
  });

  it('when a parent has a redirect, then it links to the redirect and the last item is plain text', () => {
    expect(breadcrumbItems('/announcement-management/add-announcement')).toEqual([
      { title: 'announcementManagement', to: '/announcement-management/index' },
      { title: 'addAnnouncement', to: undefined },
    ]);
  });

  it('when a route redirects to noRedirect, then it is plain text', () => {
    const routes: RouteDef[] = [
      { path: '/a', title: 'a', redirect: 'noRedirect', children: [{ path: '/a/b', title: 'b' }] },
    ];
    expect(breadcrumbItems('/a/b', routes)).toEqual([
      { title: 'a', to: undefined },
      { title: 'b', to: undefined },
    ]);
  });

  it('when rendered, then links and plain text show the translated titles', () => {
    render(
      <MemoryRouter initialEntries={['/disaster-warning/alert-detail']}>
        <Breadcrumbs />
      </MemoryRouter>,
    );
    const link = screen.getByText('Disaster warning');
    expect(link.tagName).toBe('A');
    expect(link.getAttribute('href')).toBe('/disaster-warning/disaster-release');
    expect(screen.getByText('Alert detail').tagName).not.toBe('A');
  });

  it('when the path is unknown, then the page title falls back to the app title', () => {
    const t = i18n.t.bind(i18n) as (k: string) => string;
    expect(pageTitle('/nowhere', t)).toBe('Property Management System');
    expect(pageTitle('/complaints-suggestions/index', t)).toBe(
      'Complaints and suggestions - Property Management System',
    );
  });
});
