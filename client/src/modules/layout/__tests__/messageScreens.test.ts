// Every notification a person can get opens a built screen: View never lands on the
// "coming in a later release" page (the panels and the historical messages read it first).
import { describe, expect, it } from 'vitest';
import { ALARM_TYPES, MESSAGE_PANEL_TYPES, messageViewTarget } from '@pm/shared';
import { SCREENS } from '../utils/screenRegistry';

describe('message view targets', () => {
  it.each([...ALARM_TYPES, ...MESSAGE_PANEL_TYPES])(
    'when message %i is viewed, then its record has a screen',
    (type) => {
      const target = messageViewTarget(type);
      expect(target).not.toBeNull();
      expect(Object.keys(SCREENS)).toContain(target!.path);
    },
  );
});
