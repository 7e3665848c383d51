import { lazy } from 'react';
import type { Screens } from '../layout/utils/screens';
import { WORK_KINDS } from './utils/workKinds';

/** The work-orders module's screens: complaints/suggestions and event work orders. */
export const workOrderScreens: Screens = {
  [WORK_KINDS.complaint.screenPath]: lazy(() => import('./components/ComplaintsPage')),
  [WORK_KINDS.eventOrder.screenPath]: lazy(() => import('./components/EventOrdersPage')),
};
