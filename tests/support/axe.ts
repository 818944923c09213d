// Accessibility audit with axe-core: the serious and critical violations on the page as it is now.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { timed } from './profile.ts';

export type Violation = { id: string; impact: string; help: string; targets: string[] };

export async function seriousViolations(page: Page): Promise<Violation[]> {
  const results = await timed('axe', () =>
    new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      // axe.run() in the page itself. The default (runPartial) opens a blank page for every scan
      // to merge the frames' results in, and loads axe into it again: on a busy 2-core machine
      // that new page cost more than the scan (issue 32). The shop's pages have no frames, so
      // both ways check the same document with the same rules.
      .setLegacyMode(true)
      .analyze(),
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map((node) => node.target.join(' ')),
    }));
}

/**
 * Fails on serious violations once the page is at rest: the pointer moved off it (a hovered
 * control's colours cross-fade with the scheme's) and the check read again until clean, so a
 * check that lands mid-fade does not fail, while a real violation, which stays, still does.
 * One scan of a long page (the desk's orders, which every test's orders join) takes seconds on
 * a busy 2-core machine: the wait leaves room for a few.
 */
export async function expectNoSeriousViolations(page: Page, label?: string): Promise<void> {
  await page.mouse.move(0, 0);
  await expect.poll(() => seriousViolations(page), { message: label, timeout: 15_000 }).toEqual([]);
}
