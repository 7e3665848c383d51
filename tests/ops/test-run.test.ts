// The test run's own machinery (README "CI time, fourth pass"): the one seeded template that two
// browser files starting at once share (tests/support/demo-template.ts), and the one directory of
// templates of both browser projects (tests/support/global-setup.ts).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestProject } from 'vitest/node';
import { copyTemplate } from '../support/demo-template';
import setup from '../support/global-setup';

describe('the seeded template of the browser files', () => {
  const root = mkdtempSync(join(tmpdir(), 'pm-test-run-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('when two files need a template at the same time, then one seed is made and both copy it', async () => {
    let seeds = 0;
    const seed = async (dataDir: string) => {
      seeds++;
      mkdirSync(dataDir, { recursive: true });
      // A seed takes a while (a product start): the second file asks meanwhile.
      await new Promise((r) => setTimeout(r, 500));
      writeFileSync(join(dataDir, 'seeded'), String(seeds));
    };
    const a = join(root, 'a');
    const b = join(root, 'b');
    await Promise.all([copyTemplate(join(root, 'templates'), a, seed), copyTemplate(join(root, 'templates'), b, seed)]);
    expect(seeds).toBe(1);
    expect(readFileSync(join(a, 'seeded'), 'utf8')).toBe('1');
    expect(readFileSync(join(b, 'seeded'), 'utf8')).toBe('1');
  });
});

describe("the browser projects' templates", () => {
  it('when both browser projects set up, then they are given one directory, removed when the last of them ends', async () => {
    const provided: string[] = [];
    const project = {
      name: 'e2e-serial',
      provide: (_: string, root: string) => provided.push(root),
    } as unknown as TestProject;
    const endFirst = await setup(project);
    const endSecond = await setup(project);
    expect(provided).toHaveLength(2);
    expect(provided[1]).toBe(provided[0]);
    expect(existsSync(provided[0]!)).toBe(true);
    endFirst();
    expect(existsSync(provided[0]!)).toBe(true);
    endSecond();
    expect(existsSync(provided[0]!)).toBe(false);
  });
});
