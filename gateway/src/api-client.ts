import {
  ALARM_TYPES,
  HTTP_TIMEOUT_MS,
  isAdminRole,
  MESSAGE_PANEL_TYPES,
  PERMISSIONS,
  StatusTotalsSchema,
  type Envelope,
  type LiveSnapshot,
  type StatusTotals,
} from '@pm/shared';

/** Who a bearer token belongs to, and what they may see. */
export interface Identity {
  personId: number;
  accId: number;
  username: string;
  roleValue: string;
  perms: ReadonlySet<string>;
}

/** The api could not be reached or answered with a fault (as opposed to "token not valid"). */
export class ApiUnavailableError extends Error {}

type Counters = Omit<LiveSnapshot, 'version'>;

const ZERO_TOTALS: StatusTotals = { untreated: 0, processing: 0, completed: 0 };

/** The few api calls the gateway makes on a person's behalf (docs/internal-contract.md). */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = HTTP_TIMEOUT_MS,
  ) {}

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    token: string,
    body?: unknown,
  ): Promise<{ status: number; envelope: Envelope<T> | null }> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new ApiUnavailableError(`api unreachable: ${(err as Error).message}`);
    }
    const envelope = (await res.json().catch(() => null)) as Envelope<T> | null;
    return { status: res.status, envelope };
  }

  /** The person behind a token, or null when the api says the token is not (or no longer) valid. */
  async identify(token: string): Promise<Identity | null> {
    const user = await this.call<{ accountInfo: { accId: number; personId: number; username: string } }>(
      'GET',
      '/auth/current/user',
      token,
    );
    if (user.status === 401 || user.status === 403) return null;
    const accountInfo = user.envelope?.data?.accountInfo;
    if (user.status !== 200 || !accountInfo) throw new ApiUnavailableError(`current user answered ${user.status}`);

    const info = await this.call<{ role?: { roleId: number; roleValue: string } | null }>(
      'GET',
      `/account/info/${accountInfo.accId}`,
      token,
    );
    if (info.status === 401) return null;
    const role = info.envelope?.data?.role ?? null;
    let perms = new Set<string>();
    if (role && isAdminRole(role.roleValue)) {
      perms = new Set(PERMISSIONS);
    } else if (role) {
      const menus = await this.call<{ menus?: { perms?: string | null }[] }>(
        'GET',
        `/base/sysrole/infoandmenu/${role.roleId}`,
        token,
      );
      if (menus.status === 401) return null;
      for (const menu of menus.envelope?.data?.menus ?? []) {
        for (const p of (menu.perms ?? '').split(',')) if (p.trim()) perms.add(p.trim());
      }
    }
    return {
      personId: accountInfo.personId,
      accId: accountInfo.accId,
      username: accountInfo.username,
      roleValue: role?.roleValue ?? '',
      perms,
    };
  }

  /** Loads the counters the top bar and sidebar show. Calls the person may not make count as zero. */
  async loadCounters(token: string): Promise<Counters> {
    const [unread, chat, complaints, eventOrders] = await Promise.all([
      this.call<{ byType?: Record<string, number> }>('POST', '/base/message/unRead', token, {
        messageTypeList: [...MESSAGE_PANEL_TYPES, ...ALARM_TYPES],
      }),
      this.call<number>('POST', '/im/chatrecord/query/total/unread', token, {}),
      this.call<StatusTotals>('POST', '/complain/query/getComplainStatusTotalVo', token, {}),
      this.call<StatusTotals>('POST', '/eventOrder/query/getEventOrderStatusTotalVo', token, {}),
    ]);
    if (unread.status === 401) throw new ApiUnavailableError('token rejected while loading counters');
    const unreadByType: Record<string, number> = {};
    for (const [type, count] of Object.entries(unread.envelope?.data?.byType ?? {}))
      if (Number.isInteger(count)) unreadByType[type] = count;
    const totals = (r: { status: number; envelope: Envelope<StatusTotals> | null }) => {
      const parsed = r.status === 200 ? StatusTotalsSchema.safeParse(r.envelope?.data) : null;
      return parsed?.success ? parsed.data : { ...ZERO_TOTALS };
    };
    const chatUnread =
      chat.status === 200 && Number.isInteger(chat.envelope?.data) ? (chat.envelope?.data as number) : 0;
    return { unreadByType, chatUnread, complaints: totals(complaints), eventOrders: totals(eventOrders) };
  }

  /** True when the api answers its health check. */
  async healthy(): Promise<boolean> {
    try {
      const res = await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      return res.ok;
    } catch {
      return false;
    }
  }
}
