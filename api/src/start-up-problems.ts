// Why the api cannot start, as one line naming the setting and the fix (issue 17). main.ts
// prints the line and exits 1; a failure not recognised here keeps its stack trace (a bug).
import { accessSync, constants, mkdirSync } from 'node:fs';

interface SystemError {
  code?: string;
  syscall?: string;
  port?: number;
  hostname?: string;
  address?: string;
  message?: string;
}

function describeUrl(databaseUrl: string): { host: string; database: string; user: string } {
  try {
    const url = new URL(databaseUrl);
    return {
      host: `${url.hostname || 'localhost'}:${url.port || 5432}`,
      database: decodeURIComponent(url.pathname.slice(1)) || '(the user name)',
      user: decodeURIComponent(url.username) || '(the system user)',
    };
  } catch {
    return { host: '?', database: '?', user: '?' };
  }
}

/** DATABASE_URL must be a PostgreSQL URL; its text is not repeated (it may hold a password). */
export function databaseUrlProblem(databaseUrl: string | undefined): string | null {
  if (!databaseUrl) return null;
  let ok = false;
  try {
    ok = /^postgres(ql)?:$/.test(new URL(databaseUrl).protocol);
  } catch {
    ok = false;
  }
  return ok
    ? null
    : 'DATABASE_URL is not a PostgreSQL URL: write it as postgres://user:password@host:5432/database, or leave it unset for the embedded database under DATA_DIR';
}

/** DATA_DIR must exist (it is created) and be writable: the embedded database and the uploads live there. */
export function dataDirProblem(dataDir: string): string | null {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
    return null;
  } catch (err) {
    const code = (err as SystemError).code;
    if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw err;
    const uid = process.getuid?.();
    const who = uid === undefined ? 'this process' : `this process (uid ${uid})`;
    return `DATA_DIR ${dataDir} is not writable by ${who}: give the directory to that user${uid === undefined ? '' : ` (chown -R ${uid} ${dataDir})`} or set DATA_DIR to a writable directory`;
  }
}

/** The line for a failed start, or null when the error is not a known start-up problem. */
export function startUpProblem(
  err: unknown,
  settings: { port: number; host: string; databaseUrl?: string; dataDir: string },
): string | null {
  const e = (err ?? {}) as SystemError;
  if (e.syscall === 'listen' || e.syscall === 'bind') {
    const port = e.port ?? settings.port;
    if (e.code === 'EADDRINUSE')
      return `API_PORT ${port} is already in use on ${settings.host} by another process: stop that process, or set API_PORT to a free port`;
    if (e.code === 'EACCES')
      return `API_PORT ${port} may not be opened by this user: set API_PORT to a port above 1023`;
    if (e.code === 'EADDRNOTAVAIL')
      return `API_HOST ${settings.host} is not an address of this machine: set API_HOST to 127.0.0.1, 0.0.0.0 or one of its addresses`;
  }
  if (settings.databaseUrl) {
    const { host, database, user } = describeUrl(settings.databaseUrl);
    switch (e.code) {
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `DATABASE_URL: cannot reach host ${e.hostname ?? host} (no such host name): correct the host in DATABASE_URL`;
      case 'ECONNREFUSED':
      case 'ETIMEDOUT':
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return `DATABASE_URL: cannot reach host ${host} (${e.code}): is PostgreSQL running there and accepting connections? Correct the host and port in DATABASE_URL`;
      case '3D000':
        return `DATABASE_URL: database "${database}" does not exist on ${host}: create it (createdb ${database}) or correct the name in DATABASE_URL`;
      case '28P01':
      case '28000':
        return `DATABASE_URL: PostgreSQL on ${host} refused user "${user}" (${e.message ?? 'authentication failed'}): correct the user and password in DATABASE_URL`;
      case '3F000':
        return `DATABASE_URL: the schema in its search_path does not exist in "${database}" on ${host}: create the schema or correct the URL`;
    }
    if (/timeout/i.test(e.message ?? ''))
      return `DATABASE_URL: cannot reach host ${host} (no answer in time): is PostgreSQL running there? Correct the host and port in DATABASE_URL`;
  }
  if (e.code === 'EACCES' || e.code === 'EROFS') return dataDirProblem(settings.dataDir);
  return null;
}
