/**
 * The error vocabulary of the spec's callable functions (§8), from an HTTP status.
 */
export type CallableCode =
  | 'invalid-argument'
  | 'unauthenticated'
  | 'permission-denied'
  | 'not-found'
  | 'aborted'
  | 'resource-exhausted'
  | 'cancelled'
  | 'unimplemented'
  | 'unavailable'
  | 'deadline-exceeded'
  | 'internal'
  | 'unknown';

const BY_STATUS: Record<number, CallableCode> = {
  400: 'invalid-argument',
  401: 'unauthenticated',
  403: 'permission-denied',
  404: 'not-found',
  409: 'aborted',
  429: 'resource-exhausted',
  499: 'cancelled',
  500: 'internal',
  501: 'unimplemented',
  503: 'unavailable',
  504: 'deadline-exceeded',
};

/** `status` 0 (or missing) is a network failure, which the spec reports as `internal`. */
export function callableCode(status: number | undefined): CallableCode {
  if (!status) return 'internal';
  return BY_STATUS[status] ?? 'unknown';
}

/** The spec's time-out for callable functions. */
export const CALL_TIMEOUT_MS = 70_000;

export class CallTimeoutError extends Error {
  override name = 'CallTimeoutError';
  readonly status = 504;
}

/** Rejects with {@link CallTimeoutError} when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms = CALL_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CallTimeoutError('deadline-exceeded')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
