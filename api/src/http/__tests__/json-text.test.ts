import { describe, expect, it } from 'vitest';
import { JsonText, stringifyEnvelope } from '../json-text';

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
