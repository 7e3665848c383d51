// The api tier's test kit: start an api on a fresh database, sign in, call, open the realtime
// socket, make roles, staff and a second tenant, count rows. docs/adding-a-feature.md
// "Tests of a feature" says how a feature's tests use it; work-orders.feature.test.ts is the example.
export { freePort, spawnApi, type ApiProcess } from './api-process';
export { declaredCalls, fillPath, makeCall, type DeclaredCall, type FeatureCall } from './feature-calls';
export { openSocket, refusedStatus, type TestSocket } from './realtime-socket';
export { grantRolePermission, menusOf, otherTenant, roleWith, staffWithRole, staffWithout } from './roles';
export { rowCounts } from './rows';
export { keptCounts } from './kept';
export {
  ACCOUNTS,
  CLIENT_AUTH,
  callerOf,
  requestToken,
  signIn,
  signInAll,
  signInResident,
  fileComplaint,
  tokenOf,
  type Account,
  type Caller,
  type House,
  type ResidentSession,
  type Session,
  type Target,
} from './session';
export {
  freshSchema,
  startTestApi,
  testEngines,
  withSearchPath,
  type Engine,
  type TestApi,
  type TestApiOptions,
} from './start-api';

import { openSocket, type TestSocket } from './realtime-socket';
import type { Session } from './session';

/** Opens the raw realtime socket (`ws://…/{token}/{personId}`) of a signed-in person. */
export const openRealtime = (api: { url: string }, who: Pick<Session, 'token' | 'personId'>): Promise<TestSocket> =>
  openSocket(api.url, who.token, who.personId);
export { addDays, DEMO_ZONE, localNow } from './estate-clock';
export { GATE, ruleNow } from './checkin';
export { staffFile } from './staff-file';
