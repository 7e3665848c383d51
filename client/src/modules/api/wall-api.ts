import type { WallFeed } from '@pm/shared';
import { call } from './call';

export type { WallFeed };

/** The wall screen's whole picture (issue 22): read on every (re)connect and after every alarm or work-order event. */
export const fetchWallFeed = (signal?: AbortSignal) => call('GET /wall/feed', {}, { signal });
