import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { subscribe } from 'valtio';
import type { LiveEvent } from '@pm/shared';
import { ApiError, fetchWallFeed } from '../../api';
import { resetSession } from '../../auth/states/session';
import { playSosSound } from '../../disaster/utils/sosSound';
import { currentLanguage } from '../../i18n/utils/currentLanguage';
import { onLiveEvent } from '../../live/utils/liveEvents';
import { connectLive } from '../../live/utils/liveSocket';
import { liveState } from '../../live/states/liveState';
import { receiveWallFeed, resetWallFeed, wallFeedBehind } from '../states/wallFeed';

/** Events close together (a burst from the simulator) cost one reading. */
export const WALL_RELOAD_DELAY_MS = 150;
/** A catch-up reading that failed is tried again after this long. */
const WALL_RETRY_MS = 2000;

/** The topics whose events change what the wall shows. */
const WALL_TOPICS = new Set<LiveEvent['topic']>(['alarms', 'workorders']);

/**
 * The wall screen's link to the product (issue 22), with no toast and no dialog:
 * - its own live connection (the layout's is not there); the session ending sends it to sign-in;
 * - on every snapshot (the first connect, every reconnect, the gateway's reconciliation) it
 *   reads the whole feed from the api, so it catches up on EVERY alarm raised while it was away;
 * - on every alarm or work-order event it reads the feed again (coalesced); a new alarm, and a
 *   call announced again because nobody acknowledged it, sound.
 * One timer and one request at most at any time; everything is released on unmount.
 */
export function useWallLive(token: string, perms: readonly string[]): void {
  // react-router gives a new navigate function on navigations: read the latest through a ref, so
  // the connection is not closed and reopened for it.
  const navigateNow = useNavigate();
  const navigate = useRef(navigateNow);
  navigate.current = navigateNow;
  // Bumped to connect afresh after a refusal that was not the end of the session.
  const [attempt, setAttempt] = useState(0);
  // The feed outlives a reconnection (what was shown stays, marked behind); not the screen.
  useEffect(() => resetWallFeed, []);
  useEffect(() => {
    let stopped = false;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight: AbortController | undefined;
    let seenSnapshots = liveState.snapshots;
    let wasLive = liveState.status === 'live';
    /** Bumped by every (re)connect and snapshot: only the latest catch-up reading clears "behind". */
    let catchUp = 0;

    const read = (catchUpReading = false) => {
      clearTimeout(timer);
      timer = undefined;
      inFlight?.abort();
      const controller = new AbortController();
      inFlight = controller;
      const round = catchUpReading ? ++catchUp : catchUp;
      fetchWallFeed(controller.signal)
        .then((feed) => {
          if (controller.signal.aborted) return;
          const caughtUp = round === catchUp && liveState.status === 'live';
          const fresh = receiveWallFeed(feed, caughtUp);
          if (fresh.length > 0) playSosSound();
        })
        .catch(() => {
          // A catch-up reading that failed (the api unreachable for a moment) is tried again.
          if (!controller.signal.aborted && round === catchUp) timer ??= setTimeout(() => read(true), WALL_RETRY_MS);
        })
        .finally(() => {
          if (inFlight === controller) inFlight = undefined;
        });
    };
    const readSoon = () => {
      timer ??= setTimeout(read, WALL_RELOAD_DELAY_MS);
    };

    const disconnect = connectLive({
      token,
      perms,
      language: currentLanguage(),
      onEvent: (e) => {
        if (e.topic !== 'session') return;
        if (e.kind === 'logout' || e.kind === 'expired' || e.kind === 'forcedLogout') {
          resetSession();
          navigate.current('/login?redirect=%2Fwall', { replace: true });
        }
      },
      // The gateway refused the token. A wall must not sign itself out over a hiccup (the gateway
      // unable to ask the api for a moment): only the api's own 401 ends the session (the data
      // layer handles that answer); otherwise it connects again after a pause.
      onRefused: () => {
        fetchWallFeed()
          .then(() => true)
          .catch((e: unknown) => !(e instanceof ApiError && e.status === 401))
          .then((tokenStillGood) => {
            if (tokenStillGood && !stopped) retryTimer = setTimeout(() => setAttempt((n) => n + 1), WALL_RETRY_MS);
          });
      },
    });
    const stopEvents = onLiveEvent((e) => {
      if (!WALL_TOPICS.has(e.topic)) return;
      // A call nobody acknowledged is announced again: the room hears it again.
      if (e.topic === 'alarms' && e.kind === 'sosAgain') playSosSound();
      readSoon();
    });
    // A (re)connect or a new snapshot: read everything again (the catch-up); a loss: "behind".
    const stopSnapshots = subscribe(liveState, () => {
      const live = liveState.status === 'live';
      const reconnected = live && !wasLive;
      if (!live && wasLive) wallFeedBehind();
      wasLive = live;
      if (liveState.snapshots === seenSnapshots && !reconnected) return;
      seenSnapshots = liveState.snapshots;
      wallFeedBehind();
      read(true);
    });
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      clearTimeout(timer);
      inFlight?.abort();
      stopSnapshots();
      stopEvents();
      disconnect();
    };
    // perms: joined so a new array with the same codes does not reconnect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token, perms.join(','), attempt]);
}
