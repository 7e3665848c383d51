import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import compression from 'compression';
import express from 'express';
import type { Language } from '@pm/shared';
import type { AppError } from './app-error';
import type { KeptEnvelope } from './kept-mark';
import { envelopeBody } from './json-text';
import { translate } from './translate';

/**
 * Envelopes from 8 KB to 1 MB are compressed here, at once, rather than through a stream. A
 * 1,000-row page (the conversation list, ~0.4 MB) takes ~0.6 ms in brotli 1 (26× smaller) or
 * ~1.5–2.5 ms in gzip 1 (15×); through the middleware's stream it cost ~1 ms more a call, in
 * chunks, callbacks and writes (issue 31, eighth pass). Up to 64 KB before.
 *
 * Below 8 KB compression does not pay (issue 34, README Part 31): such an answer (a 10-row list
 * page is 5–6 KB, a record a few KB) reaches the browser in the same round trip compressed or
 * not, as it fits in TCP's initial window (RFC 6928: 10 segments, ≈ 14 KB, with room left for
 * headers, TLS and smaller segments), so compressing it saves only ~4 KB of bytes, for 25–35 µs of
 * the api's CPU a call (brotli 1, gzip 1 and raw deflate alike; more than a third of it building
 * the encoder, which node's one-shot calls cannot reuse): ≈ 0.3 × the pipe on the cold list page.
 * From 8 KB (a 20-row page and up; large lists shrink 10–25×) answers are compressed as before.
 * It was 1 KB before.
 */
export const COMPRESS_FROM = 8 * 1024;
const COMPRESS_UP_TO = 1024 * 1024;
/**
 * Brotli 1 with its window fitted to the text: the encoder then sets up a window of a few KB
 * instead of its default 4 MB on every call (issue 34). A smaller window changes the stream's
 * header, never what it decodes to.
 */
const brotliFast = Array.from({ length: zlibConstants.BROTLI_MAX_WINDOW_BITS + 1 }, (_, bits) => ({
  params: {
    [zlibConstants.BROTLI_PARAM_QUALITY]: 1,
    [zlibConstants.BROTLI_PARAM_LGWIN]: Math.max(zlibConstants.BROTLI_MIN_WINDOW_BITS, bits),
  },
}));
/**
 * The options for `text`: the smallest window (2^bits - 16 bytes) that holds it. A long string is
 * taken at its largest (3 bytes a unit) rather than measured: measuring one costs a scan.
 */
const brotliFor = (text: string | Buffer) => {
  const bytes =
    typeof text !== 'string' ? text.length : text.length > 65_536 ? text.length * 3 : Buffer.byteLength(text);
  return brotliFast[Math.min(zlibConstants.BROTLI_MAX_WINDOW_BITS, Math.ceil(Math.log2(bytes + 16)))];
};
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The compression middleware, for the answers that may need its stream: raw answers (files,
 * the OAuth token, the OpenAPI document) and envelopes over 1 MB. Fastest levels (brotli 1,
 * gzip 1): about a third of the CPU of the defaults for a 10-row list, its answer within 10 % of
 * their size (issue 34). Pictures and spreadsheets are not compressible and go as they are.
 * It is not in front of every call: its hooks on each answer cost more than a small envelope.
 */
const compress = compression({
  threshold: COMPRESS_FROM,
  level: 1,
  brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } },
});

/** Sets the compression middleware up on this answer (it calls back at once). */
export function compressed(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) =>
    compress(req as express.Request, res as express.Response, (err?: unknown) => (err ? reject(err) : resolve())),
  );
}

/**
 * The encoding of an envelope of 8 KB–1 MB for an Accept-Encoding header: brotli whenever accepted
 * (as the compression middleware chooses), else gzip, else none — decided by express's own
 * `req.acceptsEncodings`, once per distinct header (browsers send one or two).
 */
const encodings = new Map<string, 'br' | 'gzip' | null>();
function encodingFor(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const key = Array.isArray(header) ? header.join(', ') : (header ?? '\0');
  let found = encodings.get(key);
  if (found === undefined) {
    const req = Object.create(express.request) as express.Request;
    Object.defineProperty(req, 'headers', { value: header === undefined ? {} : { 'accept-encoding': key } });
    const chosen = req.acceptsEncodings('br') === 'br' ? 'br' : req.acceptsEncodings('gzip', 'identity');
    found = chosen === 'br' || chosen === 'gzip' ? chosen : null;
    if (encodings.size >= 100) encodings.clear();
    encodings.set(key, found);
  }
  return found;
}

/**
 * Writes an envelope (a route's answer or an error) with `status`; `headers` (name, value, …) go
 * with it. An answer of COMPRESS_FROM or more is compressed in one synchronous call, a fraction
 * of the compression middleware's stream, which still handles answers over 1 MB (issue 34). The head is written once, with the
 * Content-Length, and the body in the same write. No ETag: the answers are personal and change
 * with every push, and hashing each costs CPU. Under COMPRESS_FROM an answer goes as it is, with no
 * Vary (it is the same whatever the Accept-Encoding).
 */
export function writeEnvelope(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  envelope: unknown,
  headers: string[] = [],
): void {
  writeEnvelopeText(req, res, status, envelopeBody(envelope), headers);
}

/**
 * writeEnvelope of an envelope already written out as JSON text, or as its UTF-8 bytes (a long
 * list's: envelopeBody), or a kept answer's (kept-answer.ts), whose compressed bytes are made the
 * first time an encoding is asked for and written again as they are.
 */
export function writeEnvelopeText(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: string | Buffer | KeptEnvelope,
  headers: string[] = [],
): void {
  const kept = typeof body === 'object' && !Buffer.isBuffer(body) ? body : null;
  const text = kept ? kept.text : (body as string | Buffer);
  if (text.length > COMPRESS_UP_TO) {
    res.statusCode = status;
    for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
    res.setHeader('content-type', JSON_TYPE);
    compress(req as express.Request, res as express.Response, () => res.end(text));
    return;
  }
  headers.push('content-type', JSON_TYPE);
  if (text.length >= COMPRESS_FROM) {
    const vary = res.getHeader('vary');
    headers.push('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = encodingFor(req.headers['accept-encoding']);
    if (encoding) {
      let bytes = kept?.encoded[encoding];
      if (bytes === undefined) {
        bytes = encoding === 'br' ? brotliCompressSync(text, brotliFor(text)) : gzipSync(text, { level: 1 });
        if (kept) kept.encoded[encoding] = bytes;
      }
      headers.push('content-encoding', encoding, 'content-length', String(bytes.length));
      res.writeHead(status, headers);
      res.end(bytes);
      return;
    }
  }
  headers.push('content-length', String(typeof text === 'string' ? Buffer.byteLength(text) : text.length));
  res.writeHead(status, headers);
  res.end(text);
}

/** Writes the envelope of an error in the request's language (`headers` as for writeEnvelope). */
export function writeError(
  req: IncomingMessage,
  res: ServerResponse,
  lang: Language,
  err: AppError,
  headers: string[] = [],
): void {
  if (res.headersSent) return;
  const retryAfter = (err.data as { retryAfter?: unknown } | null)?.retryAfter;
  if ((err.status === 429 || err.status === 503) && typeof retryAfter === 'number')
    headers.push('retry-after', String(retryAfter));
  writeEnvelope(
    req,
    res,
    err.status,
    {
      code: err.status,
      msg: translate(lang, err.messageKey, err.params),
      data: err.data,
    },
    headers,
  );
}
