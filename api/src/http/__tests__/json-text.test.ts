import { describe, expect, it } from 'vitest';
import { envelopeBody, JsonBytes, JsonText, stringifyEnvelope } from '../json-text';

describe('JsonText', () => {
  const rows = '[{"complainId" : 1, "name" : "a \\"quoted\\" name"}, {"complainId" : 2, "name" : "b"}]';

  it('when an envelope holds JSON text, then the text is written in as it is and reads back as its value', () => {
    const envelope = { code: 200, msg: 'ok', data: { list: new JsonText(rows), total: 2, other: new JsonText('[]') } };
    const text = stringifyEnvelope(envelope);
    expect(text).toContain(rows);
    expect(JSON.parse(text)).toEqual({
      code: 200,
      msg: 'ok',
      data: { list: JSON.parse(rows) as unknown, total: 2, other: [] },
    });
  });

  it('when JSON text is written anywhere else, then it stands for its value', () => {
    expect(JSON.parse(JSON.stringify({ list: new JsonText(rows) }))).toEqual({ list: JSON.parse(rows) as unknown });
  });

  it('when an answer holds no JSON text, then it is written as JSON.stringify writes it, strings like a mark included', () => {
    const envelope = { code: 200, data: { name: 'json-text-00000000-0000-0000-0000-000000000000:0', n: [1, null] } };
    expect(stringifyEnvelope(envelope)).toBe(JSON.stringify(envelope));
  });
});

describe('envelopeBody', () => {
  /** A row as lists have them: nested objects, texts that need escaping, one beyond Latin-1. */
  const row = (i: number) => ({
    id: i,
    name: i % 7 === 0 ? `張三 "${i}" \\ \u2028 😀` : `row ${i}`,
    last: i % 3 === 0 ? null : { seq: i, at: new Date(Date.UTC(2026, 10, 28, 0, 0, i % 60)) },
    members: i % 5 === 0 ? [] : [{ personId: i, images: [{ url: `/files/${i}.png` }] }],
    gone: undefined,
  });

  it.each([0, 1, 64, 65, 128, 129, 1000])(
    'when a list of %i rows is written, then its bytes are those of the envelope written in one piece',
    (n) => {
      const list: unknown[] = Array.from({ length: n }, (_, i) => row(i));
      if (n > 2) list[1] = undefined; // written as null, as in one piece
      if (n > 3) list[2] = new JsonText('{"a" : [1, 2]}');
      // Rows already encoded, alone and in runs, among the others.
      for (let i = 5; i < n; i += i % 2 === 0 ? 7 : 1) list[i] = new JsonBytes(Buffer.from(JSON.stringify(row(i))));
      const envelope = { code: 200, msg: '成功', data: { list, total: n, page: 1, limit: 1000, totalPage: 1 } };
      const body = envelopeBody(envelope);
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      expect(bytes.equals(Buffer.from(stringifyEnvelope(envelope)))).toBe(true);
      expect(typeof body === 'string').toBe(n <= 64);
    },
  );

  it('when the list is not a plain array or the data writes itself, then the envelope is written in one piece', () => {
    const list = Array.from({ length: 100 }, (_, i) => row(i));
    const own = { toJSON: () => ({ list: [1] }), list };
    for (const envelope of [
      { code: 200, data: own },
      { code: 200, data: { list: new JsonText(JSON.stringify(list)) } },
      { code: 200, data: list },
      { code: 200, data: null },
    ]) {
      const body = envelopeBody(envelope);
      expect(body).toBe(stringifyEnvelope(envelope));
    }
  });
});

describe('JsonBytes', () => {
  const bytes = Buffer.from('{"name":"張三 \\"a\\"","n":[1,null]}');

  it('when encoded JSON is written anywhere but a long list, then it stands for its value', () => {
    const value = { name: '張三 "a"', n: [1, null] };
    expect(JSON.parse(JSON.stringify({ one: new JsonBytes(bytes) }))).toEqual({ one: value });
    const envelope = { code: 200, data: { list: [new JsonBytes(bytes)], one: new JsonBytes(bytes) } };
    expect(JSON.parse(stringifyEnvelope(envelope))).toEqual({ code: 200, data: { list: [value], one: value } });
  });

  it('when a long list is all encoded rows, then its bytes are written as they are, in order', () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ i, name: i % 9 === 0 ? `陳 "${i}" \\` : `row ${i}` }));
    const envelope = {
      code: 200,
      msg: 'ok',
      data: { list: rows.map((r) => new JsonBytes(Buffer.from(JSON.stringify(r)))), total: 200 },
    };
    const body = envelopeBody(envelope) as Buffer;
    expect(body.equals(Buffer.from(JSON.stringify({ ...envelope, data: { ...envelope.data, list: rows } })))).toBe(
      true,
    );
  });
});
