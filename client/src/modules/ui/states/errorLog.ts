import { proxy } from 'valtio';

export interface ClientError {
  message: string;
  source?: string;
  time: string;
}

/** Client errors collected in this tab; the top bar shows an error-log button when there are any. */
export const errorLogState = proxy<{ errors: ClientError[] }>({ errors: [] });

export function logClientError(message: string, source?: string): void {
  errorLogState.errors.push({ message, source, time: new Date().toISOString() });
  if (errorLogState.errors.length > 50) errorLogState.errors.shift();
}

let installed = false;
/** Collects uncaught errors and rejected promises of the page. */
export function collectClientErrors(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('error', (e) =>
    logClientError(e.message, e.filename ? `${e.filename}:${e.lineno}` : undefined),
  );
  window.addEventListener('unhandledrejection', (e) => {
    const reason: unknown = e.reason;
    // Rejected api calls were already shown as toasts; only real faults go to the log.
    if (reason instanceof Error && reason.name === 'ApiError') return;
    if (reason instanceof DOMException && reason.name === 'AbortError') return;
    logClientError(reason instanceof Error ? reason.message : String(reason));
  });
}
