import type { Language } from '@pm/shared';
import type { ApiRoute } from './define-route';
import { envelopeOf } from './answer-route';
import { envelopeBody, stringifyEnvelope } from './json-text';
import { isKept, type KeptEnvelope } from './kept-mark';

/** Their envelopes, by route and language, made the first time each is written. */
const texts = new WeakMap<object, Map<string, KeptEnvelope>>();

/**
 * The text of a route's envelope of `data` in `lang`: made once for a kept answer (with room for
 * its compressed bytes, also made once: a kept record by id is a few KB, and brotli of it cost
 * more than the rest of the call), else every time (then as bytes for a long list: envelopeBody).
 */
export function envelopeText(route: ApiRoute, lang: Language, data: unknown): string | Buffer | KeptEnvelope {
  if (data === null || typeof data !== 'object' || !isKept(data)) return envelopeBody(envelopeOf(route, lang, data));
  let mine = texts.get(data);
  if (!mine) texts.set(data, (mine = new Map()));
  const key = `${lang} ${route.key}`;
  let envelope = mine.get(key);
  if (envelope === undefined)
    mine.set(key, (envelope = { text: stringifyEnvelope(envelopeOf(route, lang, data)), encoded: {} }));
  return envelope;
}
