import type { LiveEvent } from '@pm/shared';

/** How many latest rows each dashboard widget shows. */
export const WIDGET_ROWS = 5;

/** An announcement counts as new for a day after it was published (SPEC §1 "new announcements"). */
export const NEW_FOR_MS = 24 * 60 * 60 * 1000;

export const isNew = (publishTime: string, now: number = Date.now()) => now - Date.parse(publishTime) < NEW_FOR_MS;

/**
 * Which live events change which widget (SPEC §7: on the dashboard, message types 49 and 50
 * refresh the work-order and complaint widgets; a deal or completion moves them too). Replies,
 * reads and votes change no row a widget shows.
 */
export const reloads = {
  announcements: (e: LiveEvent) => e.topic === 'announcements' && (e.action === 'published' || e.action === 'revoked'),
  warnings: (e: LiveEvent) => e.topic === 'alarms' && (e.kind === 'disasterWarning' || e.kind === 'warningUpdate'),
  sos: (e: LiveEvent) => e.topic === 'alarms' && (e.kind === 'sos' || e.kind === 'sosAgain' || e.kind === 'sosUpdate'),
  residents: (e: LiveEvent) => e.topic === 'residents',
  work: (kind: 'complaint' | 'eventOrder') => (e: LiveEvent) =>
    e.topic === 'workorders' && e.kind === kind && e.action !== 'reply',
};
