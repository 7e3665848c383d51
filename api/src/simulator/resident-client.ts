import type { Envelope } from '@pm/shared';

/** A house of the resident, as GET /app/house/list answers it. */
export interface House {
  houseType: number;
  houseId: number;
  name: string;
  identity: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** One signed-in resident talking to the resident API over HTTP, as the mobile app does. */
export class ResidentClient {
  private token = '';

  constructor(
    readonly baseUrl: string,
    readonly username: string,
    private readonly client = {
      id: process.env.OAUTH_CLIENT_ID ?? 'console',
      secret: process.env.OAUTH_CLIENT_SECRET ?? 'console-secret',
    },
  ) {}

  async login(password: string): Promise<void> {
    const res = await fetch(`${this.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${this.client.id}:${this.client.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'password', username: this.username, password }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json().catch(() => ({}))) as { access_token?: string; msg?: string };
    if (!res.ok || !body.access_token) throw new ApiError(res.status, body.msg ?? `login failed (${res.status})`);
    this.token = body.access_token;
  }

  /** Calls the api and returns `data`; a non-200 envelope becomes an ApiError with its msg. */
  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', lang: 'en' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const envelope = (await res.json().catch(() => null)) as Envelope<T> | null;
    if (!res.ok || !envelope || envelope.code !== 200) {
      throw new ApiError(res.status, envelope?.msg ?? `${method} ${path} answered ${res.status}`);
    }
    return envelope.data;
  }

  /** Uploads a picture (multipart, as the app does) and answers its originalImagePath. */
  async uploadPicture(bytes: Buffer, kind: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'photo.png');
    const res = await fetch(`${this.baseUrl}/upload/uploadimage/${kind}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, lang: 'en' },
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
    const envelope = (await res.json().catch(() => null)) as Envelope<{ originalImagePath: string }> | null;
    if (!res.ok || !envelope || envelope.code !== 200)
      throw new ApiError(res.status, envelope?.msg ?? `upload answered ${res.status}`);
    return envelope.data.originalImagePath;
  }

  houses(): Promise<House[]> {
    return this.call<House[]>('GET', '/app/house/list');
  }
}
