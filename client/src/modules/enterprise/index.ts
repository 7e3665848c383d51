import { lazy } from 'react';
import type { Screens } from '../layout/utils/screens';

/** Enterprise management (issue 30): staff, departments, the company and its hotlines. */
export const enterpriseScreens: Screens = {
  '/enterprise-management/index': lazy(() => import('./components/EnterpriseManagementPage')),
};
