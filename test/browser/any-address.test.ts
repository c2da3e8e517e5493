import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { TestBrowser } from '../helpers/browser.js';
import { activity, consignment, document, target } from '../helpers/payloads.js';

const API = '/supply-chain/data-space';

/**
 * Every page opened at an address that is not DATASPACE_BASE_URL: the node's default base URL is
 * http://localhost:3000 while people type http://127.0.0.1:3000 (the address the start-up log shows).
 * Here the base URL names neither address the browser uses, so nothing may lean on it.
 */
describe('browser: every page at 127.0.0.1 and at localhost, whatever DATASPACE_BASE_URL says', function () {
  this.timeout(40_000);
  let node: TestNode;
  let browser: TestBrowser;
  const shipment = consignment({ summaryDescription: 'Valves for Antwerp' });
  const refused: string[] = [];

  before(async () => {
    node = await TestNode.start({ DATASPACE_BASE_URL: 'http://localhost:3000' });
    const forwarder = USERS.forwarder.org;
    for (const a of [
      activity('Create', forwarder, shipment),
      activity('Add', forwarder, document('PL-1', { uRIId: 'data:application/pdf;base64,JVBERi0xLjQKJSVFT0YK' }), target(shipment)),
    ]) {
      const res = await node.publish('forwarder', a);
      expect(res.status, res.text).to.equal(201);
    }
    browser = await TestBrowser.launch();
  });

  after(async () => {
    await browser?.close();
    await node?.stop();
  });

  const port = () => new URL(node.url).port;

  for (const host of ['127.0.0.1', 'localhost']) {
    describe(`at http://${host}`, () => {
      let page: Page;
      const origin = () => `http://${host}:${port()}`;

      before(async () => {
        page = await browser.context.newPage();
        // A page's Content-Security-Policy refusals and failed requests show up on its console.
        page.on('console', (m) => {
          if (m.type() === 'error') refused.push(`${host}: ${m.text()}`);
        });
      });
      after(async () => {
        await page?.close();
      });
      afterEach(() => {
        const csp = refused.splice(0).filter((r) => /Content Security Policy|Refused/i.test(r));
        expect(csp, 'CSP refusals').to.deep.equal([]);
      });

      const logIn = async (user: UserName, next: string) => {
        await page.goto(`${origin()}/console/login?next=${encodeURIComponent(next)}`);
        await page.fill('input[name=email]', USERS[user].email);
        await page.fill('input[name=password]', USERS[user].password);
        await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/console/login')), page.click('button[type=submit]')]);
      };

      it('logs in, stays on this address, and follows a revision link with the session', async () => {
        await logIn('forwarder', '/console/consignments');
        expect(page.url()).to.equal(`${origin()}/console/consignments`);
        await page.click(`#consignments a:text("${shipment.identifier}")`);
        await page.waitForSelector('#documents a.download');
        const href = await page.locator('#documents a.download').first().getAttribute('href');
        expect(href, 'a link the page builds stays on the address the browser uses').to.match(/^\//);
        const answer = await page.evaluate(async (h) => {
          const res = await fetch(h!, { headers: { accept: 'application/pdf' } });
          return { status: res.status, type: res.headers.get('content-type') };
        }, href);
        expect(answer).to.deep.equal({ status: 200, type: 'application/pdf' });
      });

      it('grants and withdraws a policy (a same-origin form POST keeps its cookie)', async () => {
        await page.goto(`${origin()}/console/policies`);
        await page.selectOption('#grant select[name=role]', 'borderAgency');
        await page.fill('#grant input[name=countries]', 'GB');
        await page.click('#grant button[type=submit]');
        expect(new URL(page.url()).origin).to.equal(origin());
        expect(await page.locator('.notice.ok').textContent()).to.equal('Policy granted.');
        await page.click('#policies button:text("Withdraw")');
        expect(await page.locator('.notice.ok').textContent()).to.equal('Policy withdrawn.');
      });

      it('runs a query on the SPARQL page with the session (a same-origin POST with Origin)', async () => {
        await page.goto(`${origin()}${API}/sparql`);
        await page.waitForSelector('.yasqe .CodeMirror');
        await page.click('.yasqe_queryButton');
        await page.waitForSelector('.yasr table tbody tr');
        expect(await page.locator('.yasr table tbody').textContent()).to.include(shipment.globalId);
      });

      it('tries an operation out on /docs with the session', async () => {
        await logIn('forwarder', '/docs');
        const operation = page
          .locator('.opblock-get', { has: page.locator(`.opblock-summary-path[data-path="${API}/consignments"]`) })
          .first();
        // Swagger UI's deep links change the location's hash: no navigation to wait for.
        await operation.locator('.opblock-summary').click({ noWaitAfter: true, timeout: 30_000 });
        await operation.locator('.try-out__btn').click();
        await operation.locator('.execute').click();
        const status = operation.locator('.live-responses-table .response .response-col_status');
        await status.waitFor({ timeout: 30_000 });
        expect((await status.textContent())?.trim()).to.equal('200');
        expect(await operation.locator('.live-responses-table tbody .response-col_description').textContent()).to.include(
          shipment.globalId,
        );
        await browser.screenshot(`docs-try-it-out-${host}`, page);
      });
    });
  }
});
