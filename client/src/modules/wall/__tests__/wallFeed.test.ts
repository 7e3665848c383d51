import { beforeEach, describe, expect, it } from 'vitest';
import { isWallOnly, type SosCall, type WallFeed, type WarnRow } from '@pm/shared';
import { receiveWallFeed, resetWallFeed, wallFeed, wallFeedBehind, WALL_FRESH_MS } from '../states/wallFeed';
import { wallItems } from '../utils/wallItems';

const call = (id: number, state: SosCall['state'], createdAt: string): SosCall => ({
  id,
  personId: 1,
  personName: 'Resident',
  phone: null,
  position: 'Lobby',
  createdAt,
  state,
  acknowledgedBy: state === 'open' ? null : 'Sam Lee',
  acknowledgedAt: state === 'open' ? null : createdAt,
  handledBy: null,
  handledAt: null,
  handledNote: null,
  houseType: 1,
  buildName: 'A',
  floorName: '1/F',
  unitName: '1A',
  carParkCode: null,
  shopCode: null,
});
const warning = (id: number, publishTime: string): WarnRow => ({
  id,
  type: 1,
  content: `Warning ${id}`,
  blockIds: [],
  publisherName: 'Alex Chan',
  publishTime,
  revoked: false,
  revokedAt: null,
  recipients: 10,
  read: 2,
  replied: 1,
  askHelp: 0,
  helpOpen: 0,
});
const feed = (sos: SosCall[], warnings: WarnRow[] = []): WallFeed => ({
  sos,
  sosTotal: sos.length,
  warnings,
  complaints: { untreated: 1, processing: 2 },
  eventOrders: { untreated: 3, processing: 4 },
  readAt: '2026-11-24T06:00:00.000Z',
});

describe('the wall feed', () => {
  beforeEach(() => resetWallFeed());

  it('when calls and warnings are mixed, then unacknowledged calls come first (oldest first), then the rest newest first', () => {
    const items = wallItems(
      feed(
        [
          call(1, 'open', '2026-11-24T01:00:00Z'),
          call(2, 'open', '2026-11-24T02:00:00Z'),
          call(3, 'acknowledged', '2026-11-24T03:00:00Z'),
        ],
        [warning(7, '2026-11-24T04:00:00Z'), warning(8, '2026-11-24T00:30:00Z')],
      ),
    );
    expect(items.map((i) => i.key)).toEqual(['sos:1', 'sos:2', 'warn:7', 'sos:3', 'warn:8']);
  });

  it('when the first reading arrives, then nothing flashes; when a later one brings new alarms, then exactly those are fresh', () => {
    expect(receiveWallFeed(feed([call(1, 'open', '2026-11-24T01:00:00Z')]), true)).toEqual([]);
    const fresh = receiveWallFeed(
      feed(
        [call(1, 'acknowledged', '2026-11-24T01:00:00Z'), call(4, 'open', '2026-11-24T05:00:00Z')],
        [warning(9, '2026-11-24T05:00:00Z')],
      ),
      true,
    );
    expect(fresh.sort()).toEqual(['sos:4', 'warn:9']);
    expect(wallFeed.fresh.sort()).toEqual(['sos:4', 'warn:9']);
    // A reading replaces the rows: a call closed meanwhile leaves, nothing accumulates. The call
    // that arrived a moment ago still flashes (a second reading follows every reconnect); it
    // sounds only once.
    const t = Date.now();
    expect(receiveWallFeed(feed([call(4, 'open', '2026-11-24T05:00:00Z')]), true, t)).toEqual([]);
    expect(wallFeed.items.map((i) => i.key)).toEqual(['sos:4']);
    expect(wallFeed.fresh).toEqual(['sos:4']);
    // A minute later it is an ordinary row.
    receiveWallFeed(feed([call(4, 'open', '2026-11-24T05:00:00Z')]), true, t + WALL_FRESH_MS);
    expect(wallFeed.fresh).toEqual([]);
  });

  it('when the connection is lost, then the feed is behind until a catch-up reading arrives', () => {
    receiveWallFeed(feed([]), true);
    expect(wallFeed.behind).toBe(false);
    wallFeedBehind();
    expect(wallFeed.behind).toBe(true);
    receiveWallFeed(feed([]), false);
    expect(wallFeed.behind).toBe(true);
    receiveWallFeed(feed([]), true);
    expect(wallFeed.behind).toBe(false);
  });

  it('when a role holds only wall:view, then it is wall-only; with anything else or ADMIN it is not', () => {
    expect(isWallOnly(['wall:view'], 'WALL')).toBe(true);
    expect(isWallOnly(['wall:view', 'complain:list'], 'WALL')).toBe(false);
    // The check-in duty board is a wall screen's too (issue 32); checkin:punch is not.
    expect(isWallOnly(['wall:view', 'checkin:view'], 'WALL')).toBe(true);
    expect(isWallOnly(['wall:view', 'checkin:view', 'checkin:punch'], 'WALL')).toBe(false);
    expect(isWallOnly(['wall:view'], 'ADMIN')).toBe(false);
    expect(isWallOnly([], 'WALL')).toBe(false);
  });
});
