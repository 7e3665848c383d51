import { randomUUID } from 'node:crypto';

/** What a JsonText stands for while an envelope is being written: a string no answer holds. */
const MARK = `json-text-${randomUUID()}:`;
const MARKED = new RegExp(`"${MARK}(\\d+)"`, 'g');
/** The first JsonText's mark as it stands in the envelope's JSON. */
const ONE_MARK = `"${MARK}0"`;
/** The texts of the JsonTexts met while writing an envelope (null: not writing one). */
let spliced: string[] | null = null;

/**
 * JSON text PostgreSQL built (a page of rows), answered as it is (issue 34): writeEnvelope puts
 * the text into the envelope without parsing it and writing it out again. Anywhere else (the
 * answer check of the tests, a log) it stands for the value it holds.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    if (!spliced) return JSON.parse(this.text);
    spliced.push(this.text);
    return `${MARK}${spliced.length - 1}`;
  }
}

/**
 * One value's JSON already encoded as UTF-8 (a conversation of the chat list, kept by
 * `JsonMemo` while its columns do not change; issue 31, the last two budgets): as an item of a
 * long `data.list`, envelopeBody writes its bytes as they are; anywhere else it stands for its value.
 */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}

  toJSON(): unknown {
    const text = this.bytes.toString('utf8');
    if (!spliced) return JSON.parse(text);
    spliced.push(text);
    return `${MARK}${spliced.length - 1}`;
  }
}

/** JSON.stringify of an envelope, with every JsonText's text put in where it stands. */
export function stringifyEnvelope(envelope: unknown): string {
  spliced = [];
  let text: string;
  let texts: string[];
  try {
    text = JSON.stringify(envelope);
  } finally {
    texts = spliced;
    spliced = null;
  }
  if (texts.length === 0) return text;
  if (texts.length === 1) {
    // One text (a list page's rows): put in by its place, no pattern run over the envelope.
    const at = text.indexOf(ONE_MARK);
    return `${text.slice(0, at)}${texts[0]}${text.slice(at + ONE_MARK.length)}`;
  }
  return text.replace(MARKED, (_mark, i: string) => texts[Number(i)]);
}

/** Whether `o` writes its own JSON (a JsonText, a JsonBytes). */
function ownJson(o: unknown): boolean {
  return typeof (o as { toJSON?: unknown } | null)?.toJSON === 'function';
}

/** Rows of a long list written out per piece (envelopeBody). */
const PIECE_ROWS = 64;
/** Where a long list stands in its envelope while the rest is written. */
const LIST_MARK = `${MARK}list`;
const COMMA = Buffer.from(',');

/**
 * An envelope's UTF-8 bytes, the same as `Buffer.from(stringifyEnvelope(envelope))`. A `data.list`
 * of more than PIECE_ROWS rows is written out PIECE_ROWS rows at a time, each piece encoded as it
 * comes: `JSON.stringify` of a whole 1,000-row page makes one string of ~0.4 MB, and encoding
 * that (its first `Buffer.byteLength` or `Buffer.from`) cost ~3.5 ms of CPU on top of the
 * stringify's ~1 ms; pieces of 64 rows cost ~1.3 ms in all (issue 31, eighth pass: the
 * conversation list over HTTP). Anything else is written in one piece.
 */
export function envelopeBody(envelope: unknown): string | Buffer {
  const data = (envelope as { data?: unknown } | null)?.data;
  const list = data !== null && typeof data === 'object' ? (data as { list?: unknown }).list : undefined;
  if (!Array.isArray(list) || list.length <= PIECE_ROWS || ownJson(envelope) || ownJson(data) || ownJson(list))
    return stringifyEnvelope(envelope);
  const outer = stringifyEnvelope({ ...(envelope as object), data: { ...(data as object), list: LIST_MARK } });
  const at = outer.indexOf(`"${LIST_MARK}"`);
  const parts: Buffer[] = [Buffer.from(`${outer.slice(0, at)}[`)];
  for (let i = 0; i < list.length;) {
    if (i > 0) parts.push(COMMA);
    const item: unknown = list[i];
    // An item already encoded goes as it is.
    if (item instanceof JsonBytes) {
      parts.push(item.bytes);
      i++;
      continue;
    }
    // Else up to PIECE_ROWS items up to the next encoded one: "[a,b]" of the piece, without its brackets (one byte each).
    let end = i + 1;
    while (end < list.length && end - i < PIECE_ROWS && !(list[end] instanceof JsonBytes)) end++;
    const piece = Buffer.from(stringifyEnvelope(list.slice(i, end)));
    parts.push(piece.subarray(1, piece.length - 1));
    i = end;
  }
  parts.push(Buffer.from(`]${outer.slice(at + LIST_MARK.length + 2)}`));
  return Buffer.concat(parts);
}
