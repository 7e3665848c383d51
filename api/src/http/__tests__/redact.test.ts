import { describe, expect, it } from 'vitest';
import { errorWithoutSecrets, redactPath } from '../redact';

describe('redactPath', () => {
  it('when a path segment is a long opaque value, then it is redacted; ids and words stay', () => {
    const token = 'p3CfA9_-x8Qe1bLkT0mZrW7yU2sV5nH4jG6dK9aB0c1';
    expect(redactPath(`/${token}/42`)).toBe('/[redacted]/42');
    expect(redactPath('/account/reset/password/1234567')).toBe('/account/reset/password/1234567');
    expect(redactPath('/im/disgroup/updat/group/name/12')).toBe('/im/disgroup/updat/group/name/12');
  });
});

describe('errorWithoutSecrets', () => {
  it('when a failed query is logged, then its parameters are not', () => {
    const err = Object.assign(
      new Error('Failed query: insert into "password_reset_code" values ($1, $2)\nparams: 7,9a8b7c'),
      {
        query: 'insert into "password_reset_code" values ($1, $2)',
        params: [7, '9a8b7c'],
        cause: Object.assign(new Error('boom\nparams: 7,9a8b7c'), { password: 'hunter2' }),
      },
    );
    const logged = JSON.stringify(errorWithoutSecrets(err));
    expect(logged).toContain('Failed query');
    expect(logged).not.toContain('9a8b7c');
    expect(logged).not.toContain('hunter2');
  });
});
