import type { Logger } from 'pino';
import type { Db } from './db/open-database';
import type { RealtimeHandle } from './modules/realtime';
import type { Mailer } from './mail/mailer';
import type { TokenService } from './modules/auth/token.service';
import type { KeptById } from './modules/work-orders/kept-by-id';
import type { KeptLists } from './modules/work-orders/kept-lists';
import type { EstateDefaults } from './modules/estate-settings/estate-defaults';

export interface ApiConfig {
  oauthClientId: string;
  oauthClientSecret: string;
  tokenTtlSeconds: number;
  /** Largest accepted request body (JSON or form); bigger ones get 413. */
  bodyLimitBytes: number;
  /** Express "trust proxy" setting: the gateway hops whose X-Forwarded-For is believed (TRUST_PROXY). */
  trustProxy: string;
  /** Where the upload service stores files. */
  uploadDir: string;
  /** Bytes one account may upload per hour and per day (UPLOAD_QUOTA_MB_PER_HOUR / _PER_DAY). */
  uploadQuota: { bytesPerHour: number; bytesPerDay: number };
  /** An estate's settings where it set none (the environment's, issue 33): see estateSettings(). */
  estateDefaults: EstateDefaults;
}

/** What every handler can reach through `ctx.services`. */
export interface AppServices {
  db: Db;
  config: ApiConfig;
  log: Logger;
  mailer: Mailer;
  tokens: TokenService;
  /** Pushes over the upstream WebSocket (api/src/modules/realtime). */
  realtime: RealtimeHandle;
  /** Complaints' and work orders' answers by id kept in this process (modules/work-orders/kept-by-id.ts). */
  keptById?: KeptById;
  /** Complaint and work-order list pages kept in this process (modules/work-orders/kept-lists.ts). */
  keptLists?: KeptLists;
}
