#!/usr/bin/env node
// Builds the gateway ahead to one JavaScript file, gateway/dist/main.js, so that starting it is
// plain `node` (README, issue 34, "Part 18"): under `node --import tsx` every start compiled the
// gateway's and shared/'s sources first, 10–13 s of a restart at load 12–20, while thousands of
// tabs waited for it.
//
// - The gateway's sources and @pm/shared (whose package points at its TypeScript) are bundled; every
//   other package stays an `import` that Node resolves from node_modules, as under tsx.
// - esbuild is tsx's own (tsx is a dependency of the gateway): the same compiler, at the same version,
//   that runs the sources in development, and no further dependency.
// - The bundle sits where the sources sit (gateway/dist/ beside gateway/src/), so the paths the
//   gateway finds from `import.meta.dirname` (../../locales, ../../client/dist) stay the same.
// - It is written to a temporary file and renamed: two `npm start`s building at once (the browser
//   tests start products two at a time) never run a half-written bundle.
//
// `npm run build` runs it; `npm start` runs it when the bundle is missing or older than its sources
// (gatewayBundle() below), and runs the sources through tsx if it cannot be built.
import { existsSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The built gateway. */
export const GATEWAY_BUNDLE = join(root, 'gateway', 'dist', 'main.js');
/** What the bundle is built from (a change in any of them makes it stale). */
const SOURCES = [join(root, 'gateway', 'src'), join(root, 'shared', 'src'), join(root, 'gateway', 'package.json')];

/** The newest modification time of a file, or of any file in a directory (npm start uses it for the client too). */
export function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = 0;
  for (const name of readdirSync(path)) t = Math.max(t, newest(join(path, name)));
  return t;
}

/** Whether gateway/dist/main.js exists and is newer than every source it is built from. */
export function gatewayBundleFresh() {
  if (!existsSync(GATEWAY_BUNDLE)) return false;
  const built = statSync(GATEWAY_BUNDLE).mtimeMs;
  return SOURCES.filter((p) => existsSync(p)).every((p) => newest(p) <= built);
}

/** tsx's esbuild (see the header), loaded from where the gateway's tsx is installed. */
async function loadEsbuild() {
  const fromGateway = createRequire(join(root, 'gateway', 'package.json'));
  const fromTsx = createRequire(fromGateway.resolve('tsx/package.json'));
  return import(pathToFileURL(fromTsx.resolve('esbuild')).href);
}

/** Builds gateway/dist/main.js from gateway/src/main.ts. */
export async function buildGateway() {
  const esbuild = await loadEsbuild();
  const temporary = `${GATEWAY_BUNDLE}.${process.pid}.tmp`;
  await esbuild.build({
    entryPoints: [join(root, 'gateway', 'src', 'main.ts')],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The sources of this repository (relative imports and @pm/*) go in; packages stay imports.
    plugins: [
      {
        name: 'packages-stay-imports',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@pm/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
    // Stack traces name source lines again with `node --enable-source-maps` (GATEWAY_SOURCE_MAPS=1).
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    banner: { js: '// Built by scripts/build-gateway.mjs from gateway/src: edit those, not this file.' },
  });
  // The map names the temporary file: give it the bundle's name before both are renamed.
  const code = readFileSync(temporary, 'utf8').replace(
    /\/\/# sourceMappingURL=.*$/m,
    '//# sourceMappingURL=main.js.map',
  );
  writeFileSync(temporary, code);
  renameSync(`${temporary}.map`, `${GATEWAY_BUNDLE}.map`);
  renameSync(temporary, GATEWAY_BUNDLE);
}

/**
 * The gateway's entry for `node`: the bundle, built first when it is missing or stale; null when it
 * cannot be built (esbuild missing from a partial install): then the caller runs the sources through tsx.
 */
export async function gatewayBundle() {
  if (gatewayBundleFresh()) return GATEWAY_BUNDLE;
  try {
    await buildGateway();
    return GATEWAY_BUNDLE;
  } catch (err) {
    console.error(`The gateway could not be built ahead (${err.message}); running its sources through tsx.`);
    return null;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildGateway();
