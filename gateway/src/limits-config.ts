import type { ApiGateLimits } from './api-gate';
import type { ProxyLimits } from './proxy-admission';
import type { TabLimits } from './tab-limits';

/** Environment variable → the limit it sets (README, "Configuration"). */
const PROXY_VARIABLES: Record<string, keyof ProxyLimits> = {
  GATEWAY_MAX_IN_FLIGHT: 'inFlight',
  GATEWAY_MAX_IN_FLIGHT_PER_CLIENT: 'inFlightPerClient',
  GATEWAY_MAX_QUEUE: 'queue',
  GATEWAY_MAX_QUEUE_PER_CLIENT: 'queuePerClient',
};
const TAB_VARIABLES: Record<string, keyof TabLimits> = {
  GATEWAY_MAX_TABS_PER_PERSON: 'tabsPerPerson',
  GATEWAY_MAX_UNAUTHENTICATED_PER_ADDRESS: 'unauthenticatedPerAddress',
  GATEWAY_TAB_EVENTS_PER_SECOND: 'eventsPerSecond',
  GATEWAY_TAB_EVENT_BURST: 'eventBurst',
};

const API_GATE_VARIABLES: Record<string, keyof ApiGateLimits> = {
  GATEWAY_API_IN_FLIGHT: 'inFlight',
  GATEWAY_API_QUEUE: 'queued',
  GATEWAY_API_MAX_WAIT_MS: 'maxWaitMs',
};

function pick<K extends string>(
  env: Record<string, string | undefined>,
  variables: Record<string, K>,
): Partial<Record<K, number>> {
  const limits: Partial<Record<K, number>> = {};
  for (const [name, key] of Object.entries(variables)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not "${raw}"`);
    limits[key] = value;
  }
  return limits;
}

/** The gateway's load limits set in the environment; unset ones keep their defaults. Throws on a bad value. */
export function limitsFromEnv(env: Record<string, string | undefined>): {
  proxyLimits: Partial<ProxyLimits>;
  tabLimits: Partial<TabLimits>;
  apiGate: Partial<ApiGateLimits>;
} {
  return {
    proxyLimits: pick(env, PROXY_VARIABLES),
    tabLimits: pick(env, TAB_VARIABLES),
    apiGate: pick(env, API_GATE_VARIABLES),
  };
}
