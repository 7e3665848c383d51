import { lazy } from 'react';
import type { Screens } from '../layout/utils/screens';

/** The buildings module's screens (SPEC §2 "Building management"): units, park spaces, merchants. */
export const buildingScreens: Screens = {
  '/building-management/unit-management': lazy(() =>
    import('./utils/houseLists').then((m) => ({ default: m.UnitsScreen })),
  ),
  '/building-management/park-space-management': lazy(() =>
    import('./utils/houseLists').then((m) => ({ default: m.SpacesScreen })),
  ),
  '/building-management/merchant-management': lazy(() =>
    import('./utils/houseLists').then((m) => ({ default: m.ShopsScreen })),
  ),
};
