// The api's control socket (issue 17): `npm run backup` asks the running api for a consistent
// backup of its embedded database and uploads over `DATA_DIR/api.sock`, a Unix socket only the
// api's own user (and root) may open. It is no network port: nothing outside the machine, and no
// other user on it, reaches it.
import { chmod, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { CONTROL_SOCKET, pack, removeDir, snapshot, stagingDir, type Quiesce } from './snapshot';

export interface ControlSocket {
  path: string;
  close(): Promise<void>;
}

/** Serves `GET /backup` (a .tar.gz of database and uploads) on DATA_DIR/api.sock. Call only while holding DATA_DIR's lock. */
export async function serveControlSocket(dataDir: string, quiesce: Quiesce, log: Logger): Promise<ControlSocket> {
  const path = join(dataDir, CONTROL_SOCKET);
  // A socket file left by an api that was killed: ours now (we hold DATA_DIR's lock).
  await rm(path, { force: true });
  let busy = false;
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/backup') {
      res.writeHead(404).end();
      return;
    }
    if (busy) {
      res.writeHead(409, { 'content-type': 'text/plain' }).end('a backup is already being made');
      return;
    }
    busy = true;
    const staging = stagingDir(dataDir, 'backup');
    const started = Date.now();
    snapshot(dataDir, staging, quiesce)
      .then(async (manifest) => {
        res.writeHead(200, {
          'content-type': 'application/gzip',
          'x-backup-uploaded-files': String(manifest.uploadedFiles),
        });
        await pipeline(pack(staging), res);
        log.info({ uploadedFiles: manifest.uploadedFiles, ms: Date.now() - started }, 'backup made');
      })
      .catch((err: Error) => {
        log.error({ err }, 'backup failed');
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message);
        else res.destroy(err);
      })
      .finally(() => {
        busy = false;
        void removeDir(staging);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  return {
    path,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(path, { force: true });
    },
  };
}
