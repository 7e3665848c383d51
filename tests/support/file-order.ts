// The order in which `vitest run` hands test files to its workers (vitest.config.ts, `sequence.sequencer`).
//
// vitest starts the longest files first when its results cache (node_modules/.vite/vitest) holds
// their last durations; on a fresh clone (CI: `npm ci`, then `npm test`) it holds nothing, and vitest
// starts the files in order of their size in bytes instead. The browser files run two at a time
// (project e2e), and by size one of the longest (wall-session: about 70 s in 4 kB) came among the last,
// while the other worker ran out of files. Here a file vitest has no duration for takes the one
// measured in file-times.json (seconds, from a run of the whole project), so the two workers start
// with the longest and end with the short files, together. A file in neither (a new one) runs first,
// largest first, as vitest does; a file that failed in the cached run still runs first.
// `node scripts/file-times.mjs` writes file-times.json again from the report of a run (.tmp/vitest.json).
import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Measured seconds per file, by its path from the repository's root. */
const measured = JSON.parse(readFileSync(new URL('./file-times.json', import.meta.url), 'utf8')) as Record<
  string,
  number
>;

export class FileOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const info = new Map(
      files.map((spec) => {
        const path = relative(root, spec.moduleId);
        const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
        const ms = cached?.duration ?? (path in measured ? measured[path]! * 1000 : undefined);
        return [spec, { ms, failed: cached?.failed ?? false, size: sizeOf(spec.moduleId) }] as const;
      }),
    );
    return [...files].sort((a, b) => {
      // As vitest's own: group order first, then one project after the other, isolated files first.
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      if (a.project.config.isolate !== b.project.config.isolate) return a.project.config.isolate ? -1 : 1;
      const x = info.get(a)!;
      const y = info.get(b)!;
      // Files with no duration anywhere first (new files), largest first.
      if (x.ms === undefined || y.ms === undefined) {
        if (x.ms === undefined && y.ms === undefined) return y.size - x.size;
        return x.ms === undefined ? -1 : 1;
      }
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      return y.ms - x.ms;
    });
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
