// Every error the API answers with deliberately. The error middleware maps them by class to the
// contract's `{ error, details? }` shape; anything else is a 500 that reveals nothing.

export abstract class ApiError extends Error {
  abstract readonly status: number;
  readonly details?: { validation_errors: string[] };
  readonly headers?: Record<string, string>;
}

export class ValidationFailedError extends ApiError {
  override name = 'ValidationFailedError';
  readonly status = 400;
  override readonly details: { validation_errors: string[] };
  constructor(validationErrors: string[]) {
    super('Validation failed');
    this.details = { validation_errors: validationErrors };
  }
}

export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
  readonly status = 400;
}

export class UnauthenticatedError extends ApiError {
  override name = 'UnauthenticatedError';
  readonly status = 401;
}

export class ForbiddenError extends ApiError {
  override name = 'ForbiddenError';
  readonly status = 403;
}

export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  readonly status = 404;
}

export class ConflictError extends ApiError {
  override name = 'ConflictError';
  readonly status = 409;
}

/** The resource existed but its time is over, for good (a refund nobody claimed in time). */
export class GoneError extends ApiError {
  override name = 'GoneError';
  readonly status = 410;
}

export class PayloadTooLargeError extends ApiError {
  override name = 'PayloadTooLargeError';
  readonly status = 413;
}

export class UnsupportedMediaTypeError extends ApiError {
  override name = 'UnsupportedMediaTypeError';
  readonly status = 415;
}

export class TooManyRequestsError extends ApiError {
  override name = 'TooManyRequestsError';
  readonly status = 429;
  override readonly headers: Record<string, string>;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.headers = { 'Retry-After': String(retryAfterSeconds) };
  }
}

export class ServiceUnavailableError extends ApiError {
  override name = 'ServiceUnavailableError';
  readonly status = 503;
  override readonly headers = { 'Retry-After': '1' };
}

/** Something an operator must configure is missing: unlike ServiceUnavailableError, an immediate retry will not help. */
export class NotConfiguredError extends ApiError {
  override name = 'NotConfiguredError';
  readonly status = 503;
}

export const sessionNotFound = () => new NotFoundError('Session not found');
export const refundNotFound = () => new NotFoundError('Refund not found');
