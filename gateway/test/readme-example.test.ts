// The README's "Testing with supertest" example is the test file that runs it
// (testing-with-supertest.test.ts): a change to one without the other fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

describe('the README example for testers', () => {
  it('when the README shows how to test with supertest, then its code is exactly the test that runs', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Testing with supertest'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block, 'a ```ts block in the section').toBeDefined();
    const test = readFileSync(join(root, 'gateway', 'test', 'testing-with-supertest.test.ts'), 'utf8');
    const body = test.slice(test.indexOf('\n\n') + 2);
    expect(block).toBe(body);
  });
});
