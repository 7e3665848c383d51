/**
 * The one error type of the api. `messageKey` is a key of locales/*.json (errors.* or
 * validation.*), translated into the request's language when the envelope is written;
 * `data` travels in the envelope (e.g. `{ captchaRequired: true }`).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly messageKey: string,
    readonly params: Record<string, string | number> = {},
    readonly data: unknown = null,
  ) {
    super(messageKey);
    this.name = 'AppError';
  }

  static badRequest(messageKey = 'errors.generic', params: Record<string, string | number> = {}) {
    return new AppError(400, messageKey, params);
  }
  static unauthorized(messageKey = 'errors.unauthorized') {
    return new AppError(401, messageKey);
  }
  static forbidden(messageKey = 'errors.forbidden') {
    return new AppError(403, messageKey);
  }
  static notFound(messageKey = 'errors.notFound') {
    return new AppError(404, messageKey);
  }
  static conflict(messageKey = 'errors.conflict') {
    return new AppError(409, messageKey);
  }
}
