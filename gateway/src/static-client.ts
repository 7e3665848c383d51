import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import express, { type Router } from 'express';
import expressStaticGzip, { type ExpressStaticGzipOptions } from 'express-static-gzip';

/** Where the built console is, unless CLIENT_DIST says otherwise. */
export const DEFAULT_CLIENT_DIST = resolve(import.meta.dirname, '../../client/dist');

const NOT_CLIENT_ROUTE = /^\/(api|socket\.io|health|metrics)(\/|$)/;
/** A path naming a file (`/favicon.ico`, `/assets/x.js`): answered by the file or 404, never the console page. */
const FILE_PATH = /^\/assets\/|\/[^/]+\.[a-z\d]{1,12}$/i;

/**
 * A directory of the build served with its pre-compressed copies (`x.js.br`, `x.js.gz`, made
 * by client/build/precompress.ts): brotli or gzip as the request's Accept-Encoding allows, with
 * `Vary: Accept-Encoding`, else the file itself. express-static-gzip lists the copies when the
 * gateway starts (npm start builds the console first).
 */
function compressedFiles(dir: string, options: ExpressStaticGzipOptions['serveStatic']) {
  return expressStaticGzip(dir, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: options,
  });
}

function notFound(res: ServerResponse): void {
  res.statusCode = 404;
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.setHeader('cache-control', 'no-cache');
  res.end('Not Found');
}

/**
 * Serves the built console: hashed files under /assets are cached for a year, everything else
 * (index.html, favicon.ico, robots.txt) is revalidated; a GET that wants HTML on any other path
 * gets index.html (client-side routes), and a path naming a file that does not exist gets 404.
 */
export function staticClient(dist = DEFAULT_CLIENT_DIST): Router {
  const router = express.Router();
  const root = resolve(dist);
  const index = join(root, 'index.html');

  router.use('/assets', compressedFiles(join(root, 'assets'), { immutable: true, maxAge: '365d', index: false }));
  router.use(
    compressedFiles(root, {
      index: false,
      setHeaders: (res) => res.setHeader('cache-control', 'no-cache'),
    }),
  );
  router.get('/{*path}', (req, res, next) => {
    if (NOT_CLIENT_ROUTE.test(req.path)) return next();
    if (FILE_PATH.test(req.path)) return notFound(res);
    if (!req.accepts('html')) return next();
    if (!existsSync(index)) {
      res.status(503).type('text/plain').send('The console has not been built yet: run `npm run build`.');
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  });
  router.use((req, res, next) => (FILE_PATH.test(req.path) ? notFound(res) : next()));
  return router;
}
