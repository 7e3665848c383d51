import type { ComponentType, LazyExoticComponent } from 'react';

/** A module's screens: route path (shared route table) → its lazily loaded component. */
export type Screens = Readonly<Record<string, LazyExoticComponent<ComponentType>>>;
