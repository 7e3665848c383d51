import type { Language } from '@pm/shared';
import type { ApiRoute } from './define-route';
import { envelopeOf } from './answer-route';
import { envelopeBody, stringifyEnvelope } from './json-text';

/** Answers a route hands out again and again, unchanged (kept counters, a caller's current user). */
const kept = new WeakSet<object>();
/** A kept answer's envelope as written: its text, and its compressed bytes by encoding (write-envelope.ts). */
export interface KeptEnvelope {
  text: string;
  encoded: { br?: Buffer; gzip?: Buffer };
}
/** Their envelopes, by route and language, made the first time each is written. */
const texts = new WeakMap<object, Map<string, KeptEnvelope>>();

/**
 * Marks an answer that is kept and answered again as it is (issue 34): never changed once handed
 * out (a change makes a new object). Its envelope is then written out once per route and
 * language and the text reused, instead of building and serializing the envelope on every call.
 */
export function keptAnswer<T extends object>(answer: T): T {
  kept.add(answer);
  return answer;
}

/**
 * The text of a route's envelope of `data` in `lang`: made once for a kept answer (with room for
 * its compressed bytes, also made once: a kept record by id is a few KB, and brotli of it cost
 * more than the rest of the call), else every time (then as bytes for a long list: envelopeBody).
 */
export function envelopeText(route: ApiRoute, lang: Language, data: unknown): string | Buffer | KeptEnvelope {
  if (data === null || typeof data !== 'object' || !kept.has(data)) return envelopeBody(envelopeOf(route, lang, data));
  let mine = texts.get(data);
  if (!mine) texts.set(data, (mine = new Map()));
  const key = `${lang} ${route.key}`;
  let envelope = mine.get(key);
  if (envelope === undefined)
    mine.set(key, (envelope = { text: stringifyEnvelope(envelopeOf(route, lang, data)), encoded: {} }));
  return envelope;
}
