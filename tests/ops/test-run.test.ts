// The test run's own machinery (README "CI time, fourth pass"): the order in which the browser
// files start on a fresh clone (tests/support/file-order.ts), the one seeded template that two
// browser files starting at once share (tests/support/demo-template.ts), and the one directory of
// templates of both browser projects (tests/support/global-setup.ts).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestProject, TestSpecification, Vitest } from 'vitest/node';
import { copyTemplate } from '../support/demo-template';
import { FileOrder } from '../support/file-order';
import setup from '../support/global-setup';
import { repoRoot } from '../support/kit';

const measured = JSON.parse(readFileSync(join(repoRoot, 'tests/support/file-times.json'), 'utf8')) as Record<
  string,
  number
>;

/** A test file of `project` as vitest's sequencer sees it. */
function spec(project: string, path: string, groupOrder: number): TestSpecification {
  return {
    project: { name: project, config: { sequence: { groupOrder }, isolate: true } },
    moduleId: join(repoRoot, path),
  } as unknown as TestSpecification;
}

/** vitest with nothing in its results cache, as on a fresh clone. */
const freshClone = {
  config: { root: repoRoot },
  cache: { getFileTestResults: () => undefined, getFileStats: () => undefined },
} as unknown as Vitest;

describe('the order of the browser files on a fresh clone', () => {
  it('when vitest has no durations, then the browser files start longest first by their measured times, a file without one first, after the groups before them', async () => {
    const e2e = Object.keys(measured).filter((p) => p.startsWith('tests/e2e/'));
    // Enough files to order, and the longest measured among them.
    expect(e2e.length).toBeGreaterThan(20);
    const files = [
      spec('e2e', 'tests/e2e/not-measured-yet.test.ts', 2),
      ...e2e.map((p) => spec('e2e', p, 2)),
      spec('api', 'api/test/owners.test.ts', 1),
    ].reverse();
    const order = (await new FileOrder(freshClone).sort(files)).map((s) => s.moduleId.slice(repoRoot.length + 1));
    expect(order[0]).toBe('api/test/owners.test.ts');
    expect(order[1]).toBe('tests/e2e/not-measured-yet.test.ts');
    const seconds = order.slice(2).map((p) => measured[p]!);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
    // Not the order by size, which vitest uses without durations: the measured times disagree with it.
    expect(order.slice(2)).not.toEqual(e2e.slice().sort((a, b) => sizeOf(b) - sizeOf(a)));
  });

  it("when vitest's cache holds a file's last run, then its duration and failure count over the measured times", async () => {
    const [longest, shortest] = Object.entries(measured)
      .filter(([p]) => p.startsWith('tests/e2e/'))
      .sort(([, a], [, b]) => b - a)
      .map(([p]) => p)
      .filter((_, i, all) => i === 0 || i === all.length - 1);
    const cached = {
      ...freshClone,
      cache: {
        getFileTestResults: (key: string) =>
          key === `e2e:${shortest}`
            ? { duration: 1, failed: true }
            : key === `e2e:${longest}`
              ? { duration: 1 }
              : undefined,
      },
    } as unknown as Vitest;
    const order = (await new FileOrder(cached).sort([spec('e2e', longest!, 2), spec('e2e', shortest!, 2)])).map((s) =>
      s.moduleId.slice(repoRoot.length + 1),
    );
    expect(order).toEqual([shortest, longest]);
  });
});

function sizeOf(path: string): number {
  return readFileSync(join(repoRoot, path)).length;
}

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
