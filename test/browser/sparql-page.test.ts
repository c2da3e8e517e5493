import { expect } from 'chai';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { TestNode } from '../helpers/test-node.js';
import { TestBrowser } from '../helpers/browser.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';
import { projectRoot } from '../../src/core/project-paths.js';
import { TokenService } from '../../src/core/auth/tokens.js';
import { captured } from '../helpers/present.js';

const SPARQL = '/supply-chain/data-space/sparql';
const EXAMPLE_SEED = resolve(projectRoot, 'examples', 'seed.json');
// The example seed's forwarder (examples/seed.json).
const FORWARDER = { email: 'ops@forwarder.example', password: 'demo-forwarder', org: 'did:web:forwarder.example' };
const JWT_SECRET = 'test-secret-0123456789abcdef';

/**
 * The SPARQL page on the example seed: every example tab answers rows, and every error the endpoint
 * answers (a syntax error, an expired session, a 503) is shown in the results pane, not an empty one.
 */
describe("browser: the SPARQL page runs its examples and shows the endpoint's errors", function () {
  this.timeout(60_000);
  let node: TestNode;
  let slow: TestNode;
  let browser: TestBrowser;
  let page: Page;
  const shipment = consignment({ summaryDescription: 'Pumps for Gdansk' });

  const logIn = async (at: TestNode) => {
    await page.goto(`${at.url}/console/login?next=${encodeURIComponent(SPARQL)}`);
    await page.fill('input[name=email]', FORWARDER.email);
    await page.fill('input[name=password]', FORWARDER.password);
    await Promise.all([page.waitForURL((url) => url.pathname === SPARQL), page.click('button[type=submit]')]);
    await page.waitForSelector('.yasqe .CodeMirror');
  };

  /** Runs the current tab's query and waits for the results pane to show a table or an error. */
  const run = async () => {
    await page.locator('.tabPanel.active .yasqe_queryButton').click();
    await page.waitForSelector('.tabPanel.active .yasr .dataTable tbody tr, .tabPanel.active .yasr .errorResult');
  };

  const setQuery = (text: string) =>
    page.evaluate((q) => {
      (window as any).yasgui.getTab().setQuery(q);
    }, text);

  before(async () => {
    node = await TestNode.start({ DATASPACE_SEED: EXAMPLE_SEED });
    // A node whose every query outlives its time limit: the endpoint answers 503.
    slow = await TestNode.start({ DATASPACE_SEED: EXAMPLE_SEED, DATASPACE_SPARQL_TIMEOUT_MS: '1' });
    const login = await fetch(`${node.url}/authentication/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: FORWARDER.email, password: FORWARDER.password }),
    });
    const token = captured(/access_token=([^;]+)/, login.headers.get('set-cookie') ?? '');
    for (const a of [
      activity('Create', FORWARDER.org, shipment),
      activity(
        'Add',
        FORWARDER.org,
        event('svc:despatched', { occurrenceLocation: { type: 'LogisticsLocation', name: 'Felixstowe', UNLocode: 'GBFXT' } }),
        target(shipment),
      ),
      activity('Add', FORWARDER.org, event('svc:arrived', { occurrenceDateTime: '2026-11-22T10:00:00Z' }), target(shipment)),
      activity('Add', FORWARDER.org, document('INV-7', { uRIId: 'data:application/pdf;base64,JVBERi0xLjQKJSVFT0YK' }), target(shipment)),
    ]) {
      const res = await node.request('POST', '/supply-chain/data-space/inbox', { token, body: a });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.status, res.text).to.equal('completed');
    }
    browser = await TestBrowser.launch();
    page = browser.page;
  });

  after(async () => {
    await browser?.close();
    await node?.stop();
    await slow?.stop();
  });

  it('answers rows in every example tab', async () => {
    await logIn(node);
    const titles = await page.locator('.tabsList .tab').allTextContents();
    expect(titles.length).to.be.at.least(4);
    for (const [i, title] of titles.entries()) {
      await page.locator('.tabsList .tab').nth(i).click();
      await run();
      expect(await page.locator('.tabPanel.active .yasr .errorResult').count(), `${title}: no error`).to.equal(0);
      const rows = await page.locator('.tabPanel.active .yasr .dataTable tbody tr').allTextContents();
      expect(rows.length, `${title}: rows`).to.be.greaterThan(0);
      if (/Events of a consignment/.test(title)) {
        expect(rows.join('\n')).to.include('despatched');
        expect(rows.join('\n')).to.include('arrived');
        expect(rows.join('\n')).to.include('Felixstowe');
      }
      if (/Consignments I can see/.test(title)) expect(rows.join('\n')).to.include(shipment.globalId);
      if (/Documents/.test(title)) expect(rows.join('\n')).to.include('INV-7');
    }
  });

  it("shows a syntax error (400) with the endpoint's message", async () => {
    await setQuery('SELECT * WHERE { ?s ?p ');
    await run();
    const shown = await page.locator('.tabPanel.active .yasr .errorResult').textContent();
    // YASR shows the answer's body: the endpoint's {name, message}.
    expect(shown).to.match(/"name":"BadRequest/);
    expect(shown).to.match(/pars|syntax|expected/i);
  });

  it("shows an expired session (401) with the endpoint's message", async () => {
    const expired = await new TokenService(JWT_SECRET, 60, node.config.nodeName).issue(
      { sub: FORWARDER.email, org: FORWARDER.org, gen: 'any: expiry is checked first' },
      Date.now() - 3_600_000,
    );
    await browser.context.addCookies([{ name: 'access_token', value: expired.token, url: node.url }]);
    await setQuery('SELECT * WHERE { ?s ?p ?o } LIMIT 1');
    await run();
    const shown = await page.locator('.tabPanel.active .yasr .errorResult').textContent();
    expect(shown).to.match(/"name":"Unauthorized/);
    expect(shown).to.match(/expired/);
  });

  it("shows a 503 (query time-out) with the endpoint's message", async () => {
    await logIn(slow);
    await run();
    await browser.screenshot('sparql-503', page);
    const shown = await page.locator('.tabPanel.active .yasr .errorResult').textContent();
    expect(shown).to.match(/"name":"QueryTimeout"/);
    expect(shown).to.match(/time limit of 1 ms/);
    await browser.screenshot('sparql-503', page);
  });
});
