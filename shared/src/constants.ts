/** Business constants and limits of SPEC §9. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const SMALL_PAGE_SIZES = [5, 10, 20] as const;
export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 10;
/** The largest page a list call accepts (panels ask for 1000 unread rows at once). */
export const MAX_LIMIT = 1000;
/** Pagination drops the page-number list at this width or less. */
export const NARROW_WIDTH_PX = 880;
export const PAGE_CHANGE_DEBOUNCE_MS = 10;
export const DEBOUNCE_MS = 500;
export const CHART_RESIZE_DEBOUNCE_MS = 100;
export const DIALOG_DELAY_MS = 500;

export const HTTP_TIMEOUT_MS = 10_000;
export const HEARTBEAT_INTERVAL_MS = 10_000;
/** The api closes a real-time connection that sent nothing for this long. */
export const HEARTBEAT_IDLE_CLOSE_MS = 35_000;
export const RECONNECT_DELAY_MS = 5_000;
export const RECONNECT_MAX_ATTEMPTS = 50;
/** Only this close code triggers a reconnect. */
export const ABNORMAL_CLOSE_CODE = 1006;

export const PANEL_PAGE = 1;
export const PANEL_LIMIT = 1000;
export const BADGE_MAX = 99;
export const TOAST_MS = 1000;
export const CHAT_NOTIFICATION_MS = 3_000_000;
export const AVATAR_SIZE_PX = 95;
export const AVATAR_CROP_PX = 300;
export const CHAT_IMAGE_MAX_WIDTH_PX = 200;

export const VERIFICATION_CODE_TTL_MS = 5 * 60_000;
export const LOGIN_FAILURES_BEFORE_CAPTCHA = 3;
export const RATING_STARS = 3;
export const CHAT_OLDER_PAGE = 10;
export const CHAT_NEWER_PAGE = 5;
/** Image and voice URL lists are joined with this separator. */
export const LIST_SEPARATOR = ';';
export const PIE_LEGEND_MAX_CHARS = 9;
export const VERSION_LABEL = '003';
export const COPYRIGHT_FROM_YEAR = 2014;

/** Cookie names the console persists the session under (SPEC §3 "Session user"). */
export const COOKIES = {
  token: 'Admin-Token',
  language: 'language',
  sidebarStatus: 'sidebarStatus',
  roleValue: 'roleValue',
  name: 'name',
  pId: 'pId',
  accId: 'accId',
} as const;
