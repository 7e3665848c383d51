// The Node version the README promises is one every installed dependency accepts (issue 33):
// `npm install` on it prints no engine warning. A dependency raising its floor above it fails
// here, naming the package, before a newcomer meets the warning.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/kit';

const read = <T>(file: string) => JSON.parse(readFileSync(join(repoRoot, file), 'utf8')) as T;
const declared = read<{ engines: { node: string } }>('package.json').engines.node;
const oldest = semver.minVersion(declared)!.version;

describe('the Node version', () => {
  it('when the README names the Node version to install, then package.json declares that floor', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const named = /Node\.js ≥ (\d+\.\d+)/.exec(readme)?.[1];
    expect(named).toBeDefined();
    expect(semver.coerce(named)!.version).toBe(oldest);
    expect(semver.satisfies(process.version, declared), `this machine's Node ${process.version}`).toBe(true);
  });

  it('when every dependency of package-lock.json is installed on the oldest Node declared, then none declares an engine it refuses', () => {
    const { packages } = read<{ packages: Record<string, { version?: string; engines?: { node?: string } }> }>(
      'package-lock.json',
    );
    const refused = Object.entries(packages)
      .filter(([, p]) => p.engines?.node && !semver.satisfies(oldest, p.engines.node, { includePrerelease: true }))
      .map(([path, p]) => `${path}@${p.version}: node ${p.engines!.node}`);
    expect(refused, `Node ${oldest} (package.json engines ${declared})`).toEqual([]);
  });
});
