// axe-core in a real page: the npm package's script is evaluated in the page through the
// DevTools protocol (never a downloaded browser or extension), then `axe.run` checks the whole
// document. Not through a <script> tag: the gateway's CSP allows no inline script, and the
// protocol's evaluation is not subject to it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the first offending elements, to find them quickly. */
  targets: string[];
  /** axe's explanation for the first of them (colours and ratio for contrast, missing names …). */
  summary: string;
}

/** Runs axe-core on the page as it is now and answers its violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // Colours are measured as shown: a button fading in from its disabled look (semantic-ui's
  // transitions) would be read mid-way as too faint. Wait for finite animations, at most 2 s.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      }[];
    }
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')),
      summary: (v.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300),
    }));
  });
}

/** The violations a person is blocked or seriously hindered by (axe's "critical" and "serious"). */
export const blocking = (violations: AxeViolation[]) =>
  violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
