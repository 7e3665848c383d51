import { defineTopic } from './define-topic';

/**
 * What the api pushes when an estate's settings change (issue 33): the settings as they now
 * apply (GET /base/estate/info's answer). Plain types, so the client loads no schema for it.
 */
export type EstatePayload = {
  housingEstateId?: number;
  name?: string;
  address?: string | null;
  logo?: string | null;
  timeZone?: string;
  defaultLanguage?: string;
  sosReannounceSeconds?: number;
  voteReminderUnitMs?: number;
};

/**
 * The estate's settings changed (basic set-up): every open console of the estate's staff takes
 * them at once (the sidebar's name and logo, the time zone of every time shown, the vote reminder
 * unit), without signing in again. Channel 3950 is this api's own number, not SPEC's; no toast.
 */
export const estate = defineTopic<{ kind: 'settings' }, EstatePayload>()({
  name: 'estate',
  permissions: null,
  channels: { estateSettings: 3950 },
  messageTypes: {},
  classify: () => ({ kind: 'settings' }),
});
