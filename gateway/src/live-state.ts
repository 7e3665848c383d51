import { applyEvent, emptySnapshot, type LiveEvent, type LiveSnapshot } from '@pm/shared';

/**
 * One person's live counters as the gateway holds them. Events move them the same way the
 * client moves its copy ({@link applyEvent}), so a tab that applied every delta holds exactly
 * what a late tab receives as its snapshot. Every change raises `version`.
 */
export class LiveState {
  private current: LiveSnapshot;
  /** False until the counters were loaded from the api once. */
  loaded = false;

  constructor(startVersion = 0) {
    this.current = { ...emptySnapshot(), version: startVersion };
  }

  get snapshot(): LiveSnapshot {
    return this.current;
  }

  apply(event: LiveEvent): LiveSnapshot {
    this.current = applyEvent(this.current, event);
    return this.current;
  }

  /** Replaces the counters with what the api reports (reconciliation); the version still moves on. */
  replace(counters: Omit<LiveSnapshot, 'version'>, minVersion = 0): LiveSnapshot {
    this.current = { ...counters, version: Math.max(this.current.version, minVersion) + 1 };
    this.loaded = true;
    return this.current;
  }
}
