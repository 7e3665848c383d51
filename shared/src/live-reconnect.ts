// How the console's live tabs pace their reconnects: the console uses it (client/src/modules/live/
// utils/liveSocket.ts), and so do the gateway bench's tabs (gateway/bench/tabs-worker.ts), so that a
// storm in the bench comes back as the console's tabs would.

/**
 * How tabs spread their reconnects when a gateway goes away (issue 34, README "Part 18"). Every tab
 * of a gateway loses its connection at the same instant, and socket.io's own pauses (1 s doubling to
 * at most 5 s, ± 50 %, the cap applied after the randomness) leave them in step: once the pauses
 * reach the cap they are all exactly 5 s, so 20,000 tabs come back at up to 6,000 connections a
 * second (simulated with socket.io's formula), more than a gateway just started accepts, and tabs
 * whose connection waits past its 20 s timeout try again at the back of the queue.
 * - The first pause is drawn anew at every loss, from 0.5 to 5 s (socket.io's ± 50 % on top): the
 *   tabs leave the instant of the loss at different moments, and the phase that sets stays with them.
 * - The pause grows, doubling, to 10 s instead of 5: tabs of a gateway that stays away try half as
 *   often. Simulated at 20,000 tabs and a gateway back 15 s after it went: at most about 2,200 a
 *   second instead of 6,100; back 5 s after: 3,700 instead of 6,100.
 * What a single tab pays: after a blip it is back within 0.25–7.5 s (median under 2 s) instead
 * of 0.5–1.5 s, and after a long outage within 10 s of the gateway's return instead of 5 (the
 * browser tests allow 30 s for "live" after their cut ends).
 */
export const RECONNECT_MAX_MS = 10_000;
const FIRST_RECONNECT_MIN_MS = 500;
const FIRST_RECONNECT_MAX_MS = 5000;

/** The first pause after a lost connection (socket.io adds its ± 50 % and doubles it from there). */
export function firstReconnectPause(random: number = Math.random()): number {
  return Math.round(FIRST_RECONNECT_MIN_MS + random * (FIRST_RECONNECT_MAX_MS - FIRST_RECONNECT_MIN_MS));
}
