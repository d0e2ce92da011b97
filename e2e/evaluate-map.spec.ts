/**
 * A session's detail in Evaluate shows its learning curve and its map (the shared map panel): an
 * evaluation with the simulated model in the page (no server, no key) on The Vault, naive and
 * credit assignment; opening the credit-assignment session draws the three rooms it found, the
 * Vault where points were scored; opening it again closes it. Screenshot at 1280×800.
 */
import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './axe.ts';
import { openView } from './llm-helpers.ts';
import { goToRunView, setNumber, setStoryRole } from './run-helpers.ts';

test('Evaluate: a session’s detail shows its curve and its map', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openView(page, 'settings');
  await page.getByTestId('provider-preset').selectOption('simulated');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
  await goToRunView(page, 'evaluate');
  await page.locator('[data-testid="evaluate-policy"][value="static"]').uncheck();
  await page.locator('[data-testid="evaluate-policy"][value="credit-assignment"]').check();
  await setStoryRole(page, 'evaluate', 'vault', 'custom', '1');
  await setNumber(page, 'evaluate-repeats', 1);
  await setNumber(page, 'evaluate-episodes', 2);
  await setNumber(page, 'evaluate-steps', 12);
  await page.getByTestId('evaluate-start').click();
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  const sessions = page.getByTestId('evaluate-session');
  await expect(sessions).toHaveCount(2);
  const credit = sessions.filter({ hasText: 'credit' });
  await expect(credit).toContainText('vault:1');
  await credit.click();
  await expect(credit).toHaveAttribute('aria-pressed', 'true');
  const detail = page.getByTestId('evaluate-session-detail');
  await expect(detail).toBeVisible();
  await expect(page.getByTestId('evaluate-session-curve')).toBeVisible();
  const map = page.getByTestId('evaluate-map');
  await expect(map).toHaveAttribute('data-placed', 'true');
  await expect(map).toHaveAttribute('data-rooms', 'Lobby|Vault Door|Vault');
  await expect(page.getByTestId('evaluate-map-room').and(page.locator('[data-name="Vault"]'))).toHaveAttribute('data-scored', 'true');
  await detail.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/evaluate-session-map-1280x800.png' });
  await expectNoSeriousViolations(page, 'Evaluate with a session’s detail open');
  await credit.click();
  await expect(detail).toHaveCount(0);
});
