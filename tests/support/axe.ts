// Accessibility audit with axe-core: the serious and critical violations on the page as it is now.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export type Violation = { id: string; impact: string; help: string; targets: string[] };

export async function seriousViolations(page: Page): Promise<Violation[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map((node) => node.target.join(' ')),
    }));
}
