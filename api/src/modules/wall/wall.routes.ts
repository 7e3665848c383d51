import { route, type ApiModule } from '../../http/define-route';
import { wallFeed } from './wall.service';

/** The read-only wall screen's call (shared/src/api/wall.ts, issue 22). */
export const wallModule: ApiModule = {
  name: 'wall',
  routes: [route('GET /wall/feed', async (ctx) => wallFeed(ctx))],
};
