import { describe, expect, it } from 'vitest';
import { limitsFromEnv } from '../limits-config';

describe('limits from the environment', () => {
  it('when limits are set, then they are read as numbers and the unset ones are left to their defaults', () => {
    expect(
      limitsFromEnv({
        GATEWAY_MAX_IN_FLIGHT: '128',
        GATEWAY_MAX_TABS_PER_PERSON: '10',
        GATEWAY_TAB_EVENTS_PER_SECOND: '2.5',
        GATEWAY_API_IN_FLIGHT: '8',
      }),
    ).toEqual({
      proxyLimits: { inFlight: 128 },
      tabLimits: { tabsPerPerson: 10, eventsPerSecond: 2.5 },
      apiGate: { inFlight: 8 },
    });
    expect(limitsFromEnv({ GATEWAY_MAX_QUEUE: '' })).toEqual({ proxyLimits: {}, tabLimits: {}, apiGate: {} });
  });

  it('when a limit is not a positive number, then the gateway refuses to start and names the variable', () => {
    expect(() => limitsFromEnv({ GATEWAY_MAX_QUEUE_PER_CLIENT: 'lots' })).toThrow(
      'GATEWAY_MAX_QUEUE_PER_CLIENT must be a positive number, not "lots"',
    );
    expect(() => limitsFromEnv({ GATEWAY_MAX_IN_FLIGHT_PER_CLIENT: '0' })).toThrow(/GATEWAY_MAX_IN_FLIGHT_PER_CLIENT/);
  });
});
