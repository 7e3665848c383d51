// What an image runs and holds, read from its Dockerfile, for tests that simulate Docker.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, posix, relative, sep } from 'node:path';
import { repoRoot } from './product';

export interface ImageStart {
  entrypoint: string[];
  cmd: string[];
  user?: string;
  env: Record<string, string>;
}

const dockerfile = (tier: 'api' | 'gateway') => readFileSync(join(repoRoot, tier, 'Dockerfile'), 'utf8');
const lastStage = (text: string) => text.slice(text.lastIndexOf('\nFROM '));

/** ENV, USER, ENTRYPOINT and CMD (exec form) of `<tier>/Dockerfile`'s last stage. */
export function imageStart(tier: 'api' | 'gateway'): ImageStart {
  const last = lastStage(dockerfile(tier));
  const json = (instruction: string) => {
    const m = new RegExp(`^${instruction} (\\[.*\\])$`, 'm').exec(last);
    return m ? (JSON.parse(m[1]) as string[]) : [];
  };
  const env = Object.fromEntries(
    [...last.matchAll(/^ENV ((?:.*\\\n)*.*)$/gm)].flatMap((m) =>
      [...m[1].matchAll(/(\w+)=(\S+)/g)].map((kv) => [kv[1], kv[2]]),
    ),
  );
  return { entrypoint: json('ENTRYPOINT'), cmd: json('CMD'), user: /^USER (\S+)$/m.exec(last)?.[1], env };
}

/** The files of an image laid out in a temporary directory, as its last stage's COPY lines put them. */
export interface ImageLayout {
  /** The image's WORKDIR (`/app`): run the image's command with this as its working directory. */
  dir: string;
  /** A command of the image (ENTRYPOINT or CMD) with a program copied outside WORKDIR replaced by its copy. */
  command(argv: string[]): string[];
  remove(): void;
}

/**
 * Lays out what `<tier>`'s image holds, in a new world-readable temporary directory: the last
 * stage's `COPY` lines, read from the repository as the build context (less `.dockerignore`), and
 * `COPY --from=<stage>` of the stage's products as this checkout has them (the production
 * dependencies of the workspaces that stage's `npm ci -w …` installs, resolved through
 * package-lock.json; the built console). The image's unprivileged user reads its files there,
 * wherever the checkout lives (root's home, a folder with mode 700), and a file the image
 * would lack is missing there too.
 */
export function imageLayout(tier: 'api' | 'gateway'): ImageLayout {
  const text = dockerfile(tier);
  const last = lastStage(text);
  const workdir = /^WORKDIR (\S+)$/m.exec(last)?.[1] ?? '/';
  const dir = mkdtempSync(join(tmpdir(), `image-${tier}-`));
  // Files COPY puts outside WORKDIR (the entry point in /usr/local/bin) go under this folder.
  const outside = join(dir, '.image-root');
  const target = (dest: string) => {
    const abs = posix.resolve(workdir, dest);
    return abs === workdir || abs.startsWith(workdir + '/')
      ? join(dir, posix.relative(workdir, abs))
      : join(outside, abs);
  };
  const ignored = dockerignore();
  try {
    for (const m of last.matchAll(/^COPY (.+)$/gm)) {
      const args = m[1].split(/\s+/);
      const from = args[0].startsWith('--from=') ? args.shift()!.slice('--from='.length) : null;
      const dest = args.pop()!;
      const toDir = dest.endsWith('/') || args.length > 1;
      for (const src of args) {
        const to = toDir ? join(target(dest), basename(src)) : target(dest);
        if (from === null) copyTree(join(repoRoot, src), to, src, ignored);
        else copyStageProduct(text, from, src, to);
      }
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  // Readable by anyone, whatever umask the checkout was made with (copies only: node_modules
  // holds hard links, opened by linkOrCopy).
  run('find', [dir, '-path', join(dir, 'node_modules'), '-prune', '-o', '-exec', 'chmod', 'a+rX', '{}', '+']);
  return {
    dir,
    command: ([program, ...rest]) => {
      const copied = ['/usr/local/bin', '/usr/bin', '/bin']
        .map((d) => join(outside, d, program))
        .find((p) => !program.includes('/') && existsSync(p));
      return [copied ?? program, ...rest];
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `.dockerignore`'s patterns as tests on a context path (`api/src/x.test.ts`). */
function dockerignore(): (path: string) => boolean {
  const patterns = readFileSync(join(repoRoot, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((glob) => {
      const body = glob
        .replace(/^\//, '')
        .split('/')
        .map((part) =>
          part === '**' ? '(?:.*/)?' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*') + '/',
        )
        .join('');
      // A matching folder excludes everything below it.
      return new RegExp(`^${body.replace(/\/$/, '')}(?:/.*)?$`);
    });
  return (path) => patterns.some((p) => p.test(path));
}

/** COPY of a context path: a file to `to`, a folder's contents into `to`, less the ignored paths. */
function copyTree(from: string, to: string, contextPath: string, ignored: (path: string) => boolean): void {
  if (ignored(contextPath)) return;
  cpSync(from, to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => !ignored(relative(repoRoot, src).split(sep).join('/')),
  });
}

/**
 * `COPY --from=<stage> /app/<path>`: a stage's `node_modules` (the root's or a workspace's, such as
 * `api/node_modules`) holds the production dependencies of the workspaces its `npm ci -w …`
 * installs, placed as package-lock.json places them; anything else (the built console) is the
 * checkout's own.
 */
function copyStageProduct(text: string, stage: string, src: string, to: string): void {
  const path = src.replace(/^\/app\//, '');
  if (!/(^|\/)node_modules$/.test(path)) {
    if (!existsSync(join(repoRoot, path))) throw new Error(`${path} is missing: build it first (npm run build)`);
    mkdirSync(dirname(to), { recursive: true });
    cpSync(join(repoRoot, path), to, { recursive: true });
    return;
  }
  const stageText = new RegExp(`^FROM \\S+ AS ${stage}$([\\s\\S]*?)(?=^FROM |(?![\\s\\S]))`, 'm').exec(text)?.[1] ?? '';
  const install = /^RUN npm ci (.*)$/m.exec(stageText)?.[1] ?? '';
  const workspaces = [...install.matchAll(/-w (\S+)/g)].map((w) => w[1]);
  mkdirSync(to, { recursive: true });
  // One `cp` per destination folder (node_modules, node_modules/@scope …).
  const byFolder = new Map<string, string[]>();
  for (const pkg of productionClosure(workspaces).filter((p) => p.startsWith(path + '/'))) {
    const from = join(repoRoot, pkg);
    const dest = join(to, pkg.slice(path.length + 1));
    mkdirSync(dirname(dest), { recursive: true });
    if (isLink(from)) symlinkSync(readlinkSync(from), dest);
    else if (existsSync(from)) byFolder.set(dirname(dest), [...(byFolder.get(dirname(dest)) ?? []), from]);
    // else: an optional dependency of another platform, not installed here either
  }
  for (const [folder, sources] of byFolder) linkOrCopy(sources, folder);
}

/**
 * `cp -al`: hard links, quick for the thousands of files of node_modules (a copy where the
 * temporary directory is on another file system). New folders are opened to everyone; a file the
 * checkout keeps from others (a umask of 077) is copied and opened, its original left as it is.
 */
function linkOrCopy(sources: string[], folder: string): void {
  if (spawnSync('cp', ['-al', ...sources, folder + '/']).status !== 0) run('cp', ['-a', ...sources, folder + '/']);
  run('find', [folder, '-type', 'd', '!', '-perm', '-o+rx', '-exec', 'chmod', 'a+rx', '{}', '+']);
  const closed = spawnSync('find', [folder, '-type', 'f', '!', '-perm', '-o+r'], { encoding: 'utf8' });
  for (const file of closed.stdout.split('\n').filter(Boolean)) {
    const copy = `${file}.copy`;
    copyFileSync(file, copy);
    chmodSync(copy, 0o644);
    renameSync(copy, file);
  }
}

const isLink = (path: string) => {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
};

interface LockEntry {
  link?: boolean;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * The `node_modules/…` paths (the root's and the workspaces' own, `api/node_modules/…`) that
 * `npm ci --omit=dev -w <workspaces>` installs, found in
 * package-lock.json by Node's resolution (a nested copy first, then each folder up). Outermost
 * paths only: a package's own nested `node_modules` is copied with it.
 */
function productionClosure(workspaces: string[]): string[] {
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const found = new Set<string>();
  const queue = [...workspaces];
  // Node's resolution: the package's own node_modules, then each enclosing one up to the root.
  const enclosing = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/node_modules/')));
  const resolve = (from: string, name: string): string | undefined => {
    for (let base = from; ; base = enclosing(base)) {
      const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!base) return undefined;
    }
  };
  while (queue.length) {
    const at = queue.shift()!;
    const entry = lock.packages[at];
    if (!entry) continue;
    if (entry.link && entry.resolved) queue.push(entry.resolved);
    const optionalPeers = new Set(
      Object.entries(entry.peerDependenciesMeta ?? {})
        .filter(([, m]) => m.optional)
        .map(([n]) => n),
    );
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((n) => !optionalPeers.has(n)),
    ];
    for (const name of names) {
      const path = resolve(at, name);
      if (path && !found.has(path)) {
        found.add(path);
        queue.push(path);
      }
    }
  }
  const paths = [...found].filter((p) => /(^|\/)node_modules\//.test(p)).sort();
  return paths.filter((p) => !paths.some((q) => q !== p && p.startsWith(q + '/')));
}

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
}
