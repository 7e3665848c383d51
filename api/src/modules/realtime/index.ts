// The real-time channel (SPEC §7, DESIGN §3): the upstream WebSocket server and the event bus.
export { attachRealtime, hashToken, IDLE_MS } from './attach-realtime';
export type { RealtimeHandle, RealtimeOptions, VerifiedToken, VerifyToken } from './attach-realtime';
export { CLOSE_IDLE, CLOSE_TOKEN_REVOKED } from './connection-registry';
export type { PersonId } from './event-bus';
export { JOURNAL_RETENTION_MS, PushJournal } from './push-journal';
export type { Push, StampedPush } from './push-journal';
