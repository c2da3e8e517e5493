import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { projectRoot } from '../../src/core/project-paths.js';

/** Debian's chromium, installed by .ci/run (apt-get install chromium); playwright-core downloads no browser. */
export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = resolve(projectRoot, 'test-output', 'screenshots');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** One headless chromium with a fresh profile; close() removes the profile. */
export class TestBrowser {
  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly profile: string,
  ) {}

  static async launch(): Promise<TestBrowser> {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
    const profile = mkdtempSync(join(tmpdir(), 'dataspace-chromium-'));
    // A persistent context is how playwright takes --user-data-dir: a fresh one for every run.
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 860 },
      acceptDownloads: true,
    });
    context.setDefaultTimeout(10_000);
    const page = context.pages()[0] ?? (await context.newPage());
    return new TestBrowser(context, page, profile);
  }

  /** Saves a full-page screenshot to test-output/screenshots/<name>.png and returns its path. */
  async screenshot(name: string, page: Page = this.page): Promise<string> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const path = join(SCREENSHOTS, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    return path;
  }

  async close(): Promise<void> {
    await this.context.close();
    rmSync(this.profile, { recursive: true, force: true });
  }
}
