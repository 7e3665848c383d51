/** The one error type of the data-access layer: HTTP status, envelope code and a readable message. */
export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 for network failures and timeouts. */
    readonly status: number,
    /** Envelope `code` when the api answered one. */
    readonly code?: number,
    /** Envelope `data`, e.g. `{ captchaRequired: true }` on a 428. */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === 'AbortError';
}
