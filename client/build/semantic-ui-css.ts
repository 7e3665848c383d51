// Semantic UI's stylesheets as the console loads them (issue 17: the whole semantic.min.css was
// 569 KB of render-blocking CSS, 115 KB gzipped, for a login page).
//
// The console imports only the components it uses, one file each, in two groups:
// client/src/modules/ui/semantic/first-screen.ts (with the console) and signed-in.ts (with the
// signed-in frame). This plugin handles each `semantic-ui-css/components/<name>.min.css`:
//   1. (build) without the selectors nothing uses: PurgeCSS keeps a rule when every class in its
//      selector occurs as a word in client/src, shared/src or semantic-ui-react's components
//      (which write the classes their props turn into). A class assembled at run time from
//      pieces must have each piece written somewhere in full, or go into SAFELIST;
//   2. (build) only the icons whose name the console writes as a string (`name="user circle"`,
//      `icon: 'bell'`, a ternary's `'star outline'`, `className="world icon"`), and the icon fonts
//      cut down to those glyphs (icons.woff2 alone was 40 KB);
//   3. without site.css's `@import` of Google Fonts: that request fails offline and is blocked
//      in mainland China; Lato comes from @fontsource/lato (imported in main.tsx).
// The result goes through Vite like any CSS, so file names are hashes of what they contain.
// tests/ops/console-assets.test.ts checks in Chromium that the screens' icons are drawn.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import postcss from 'postcss';
import { PurgeCSS } from 'purgecss';
import subsetFont from 'subset-font';
import type { Plugin } from 'vite';

/** States semantic-ui-react and the console switch on at run time (kept whatever the sources say). */
const SAFELIST = [
  /^(active|visible|hidden|animating|transition|in|out|fade|scale|fly|slide|drop|browse|swing|up|down)$/,
  /^(left|right|top|bottom|center|dimmed|dimmable|loading|disabled|error|focus|selected|open|upward)$/,
];

/** Icons semantic-ui-react shows by itself in the components above (Modal and Message close, Label delete). */
const ICONS_OF_COMPONENTS = ['close', 'delete'];

const require = createRequire(import.meta.url);
const cssRoot = dirname(require.resolve('semantic-ui-css/package.json'));
const suir = join(dirname(require.resolve('semantic-ui-react/package.json')), 'dist', 'es');
const repo = join(import.meta.dirname, '..', '..');
const FONTS = join(cssRoot, 'themes', 'default', 'assets', 'fonts');
/** Where the cut-down fonts are written; Vite takes them from there like any file the CSS names. */
const SUBSET_DIR = join(cssRoot, '..', '.cache', 'semantic-ui-icons');
const ICON_FONTS: Record<string, string> = {
  Icons: 'icons',
  'outline-icons': 'outline-icons',
  'brand-icons': 'brand-icons',
};

const OUR_SOURCES = [`${repo}/client/index.html`, `${repo}/client/src/**/*.{ts,tsx,css}`, `${repo}/shared/src/**/*.ts`];
const SUIR_SOURCES = [
  // The components write their classes; lib/ holds the helpers that build `three wide` and
  // friends. lib/SUI.js (every color, size and icon name) is left out: it would keep them all.
  `${suir}/{addons,behaviors,collections,elements,modules,views}/**/*.js`,
  `${suir}/lib/{classNameBuilders,numberToWord}.js`,
];

const withoutRemoteImports = (css: string) => css.replace(/@import\s+url\(\s*["']?https?:\/\/[^)]*\)\s*;?/g, '');

/** `i.icon.user.circle:before{content:"\f2bd"}`: the rule that draws one icon. */
const isGlyphRule = (rule: postcss.Rule) =>
  rule.selectors.every((s) => /^i\.icon(\.[\w-]+)+:before$/.test(s)) &&
  rule.some((d) => d.type === 'decl' && d.prop === 'content');

/** The icon stylesheet in two: the rules drawing each icon, and the rest (fonts, sizes, colors, states). */
function splitIconRules(css: string): { glyphs: string; rest: string } {
  const rest = postcss.parse(css);
  const glyphs = postcss.root();
  rest.walkRules((rule) => {
    if (isGlyphRule(rule)) glyphs.append(rule.remove());
  });
  return { glyphs: glyphs.toString(), rest: rest.toString() };
}

/** An icon name's words in a fixed order: `right angle` and `angle right` are the same icon. */
const iconKey = (words: string[]) => [...words].sort().join(' ');

/** Every icon Semantic UI knows (`user circle`, `star outline` …), by iconKey. */
const ICON_NAMES = new Set(
  [...readFileSync(join(cssRoot, 'components', 'icon.min.css'), 'utf8').matchAll(/i\.icon((?:\.[\w-]+)+):before/g)].map(
    (m) => iconKey(m[1].slice(1).split('.')),
  ),
);

/** The words of a source's string literals that name an icon (`'star outline'`, `"world icon"` → star, outline, world). */
function iconNamesIn(content: string): string[] {
  const words = ['i', 'icon', ...ICONS_OF_COMPONENTS];
  // Each kind of quote on its own: a template literal's backticks must not pair across JSX.
  for (const quoted of [/"([^"\n]*)"/g, /'([^'\n]*)'/g, /`([^`$\n]*)`/g])
    for (const m of content.matchAll(quoted)) {
      const name = m[1]
        .trim()
        .replace(/\s+icon$/, '')
        .split(/\s+/);
      if (ICON_NAMES.has(iconKey(name))) words.push(...name);
    }
  return words;
}

async function purge(css: string, content: string[], extractor?: (content: string) => string[]): Promise<string> {
  const [result] = await new PurgeCSS().purge({
    content,
    css: [{ raw: css }],
    fontFace: true,
    keyframes: true,
    safelist: { standard: SAFELIST },
    extractors: extractor ? [{ extractor, extensions: ['ts', 'tsx', 'html', 'css'] }] : [],
  });
  return result.css;
}

/** A component's rules in use; for the icons, the rules drawing one are kept for the icon names written in our sources. */
async function usedRules(name: string, css: string): Promise<string> {
  if (name !== 'icon') return purge(css, [...OUR_SOURCES, ...SUIR_SOURCES]);
  const { glyphs, rest } = splitIconRules(css);
  return `${await purge(rest, [...OUR_SOURCES, ...SUIR_SOURCES])}\n${await purge(glyphs, OUR_SOURCES, iconNamesIn)}`;
}

/** Each icon font cut down to the glyphs the CSS still draws, as WOFF2 only (every browser the console supports reads it). */
async function subsetIconFonts(css: string): Promise<string> {
  const codepoints = [...css.matchAll(/content:\s*["']\\([0-9a-f]{2,6})["']/gi)].map((m) => parseInt(m[1], 16));
  const text = String.fromCodePoint(...new Set(codepoints));
  mkdirSync(SUBSET_DIR, { recursive: true });
  let out = css;
  for (const face of css.match(/@font-face\s*\{[^}]*\}/g) ?? []) {
    const family = /font-family:\s*["']?([^;"']+)["']?\s*;/.exec(face)?.[1];
    const file = family ? ICON_FONTS[family] : undefined;
    if (!file) continue;
    const subset = await subsetFont(readFileSync(join(FONTS, `${file}.woff2`)), text, { targetFormat: 'woff2' });
    const name = `${file}-${createHash('sha256').update(subset).digest('hex').slice(0, 12)}.woff2`;
    writeFileSync(join(SUBSET_DIR, name), subset);
    // Relative to semantic-ui-css/components/, where icon.min.css is.
    const src = `src:url(../../.cache/semantic-ui-icons/${name}) format("woff2")`;
    out = out.replace(face, face.replace(/src:[^;]*;(\s*src:[^;]*;)?/, `${src};`));
  }
  return out;
}

export function semanticUiCss(): Plugin {
  let build = false;
  return {
    name: 'semantic-ui-css',
    enforce: 'pre',
    configResolved(config) {
      build = config.command === 'build';
    },
    async transform(code, id) {
      const name = /\/semantic-ui-css\/components\/([\w-]+)\.min\.css$/.exec(id.split('?')[0])?.[1];
      if (!name) return null;
      let css = withoutRemoteImports(code);
      if (build) css = await usedRules(name, css);
      if (build && name === 'icon') css = await subsetIconFonts(css);
      return { code: css, map: null };
    },
  };
}
