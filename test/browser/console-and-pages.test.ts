import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { SignalReceiver } from '../helpers/signal-receiver.js';
import { TestBrowser } from '../helpers/browser.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';

const INVOICE = [Buffer.from('%PDF-1.4 invoice one\n%%EOF\n'), Buffer.from('%PDF-1.4 invoice two, corrected\n%%EOF\n')];
const API = '/supply-chain/data-space';

/** The console, the API reference and the SPARQL page, driven in Debian's chromium like a person would. */
describe('browser: console, API reference and SPARQL page', function () {
  this.timeout(60_000);
  let files: Server;
  let receiver: SignalReceiver;
  let node: TestNode;
  let browser: TestBrowser;
  const shipment = consignment({ summaryDescription: 'Gearboxes for Rotterdam' });
  const others = [consignment(), consignment(), consignment()];

  const logIn = async (user: UserName, next = '/console') => {
    const { page } = browser;
    await page.goto(`${node.url}/console/login?next=${encodeURIComponent(next)}`);
    await page.fill('input[name=email]', USERS[user].email);
    await page.fill('input[name=password]', USERS[user].password);
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/console/login')), page.click('button[type=submit]')]);
  };

  before(async () => {
    files = createServer((req, res) => {
      const n = ['/invoice-1.pdf', '/invoice-2.pdf'].indexOf(req.url ?? '');
      if (n < 0) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'application/pdf' }).end(INVOICE[n]);
    });
    await new Promise<void>((ok) => files.listen(0, '127.0.0.1', () => ok()));
    const fileBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    receiver = await SignalReceiver.start();
    node = await TestNode.start({ DATASPACE_FETCH_ALLOW: '127.0.0.1' });
    expect((await node.as('border', 'PUT', `${API}/notification-endpoint`, { url: receiver.url })).status).to.equal(200);
    const forwarder = USERS.forwarder.org;
    for (const a of [
      activity('Create', forwarder, shipment),
      activity(
        'Add',
        forwarder,
        event('svc:despatched', { occurrenceLocation: { type: 'LogisticsLocation', name: 'Felixstowe', UNLocode: 'GBFXT' } }),
        target(shipment),
      ),
      activity('Add', forwarder, document('INV-1', { uRIId: `${fileBase}/invoice-1.pdf` }), target(shipment)),
      activity('Add', forwarder, document('INV-1', { uRIId: `${fileBase}/invoice-2.pdf`, versionId: '2' }), target(shipment)),
      ...others.map((c) => activity('Create', forwarder, c)),
    ]) {
      const res = await node.publish('forwarder', a);
      expect(res.status, res.text).to.equal(201);
    }
    // The console shows delivery state as recorded: wait until the node has recorded the pre-notification delivered.
    const until = Date.now() + 15_000;
    for (;;) {
      const res = await node.as('forwarder', 'GET', `${API}/consignments/${encodeURIComponent(shipment.globalId)}/deliveries`);
      if (res.body.some((d: { state: string }) => d.state === 'delivered')) break;
      if (Date.now() > until) throw new Error(`no delivery recorded: ${res.text}`);
      await new Promise((ok) => setTimeout(ok, 100));
    }
    browser = await TestBrowser.launch();
  });

  after(async () => {
    await browser?.close();
    await node?.stop();
    await receiver?.close();
    files?.close();
  });

  it('opens / as a page that leads to the console, the API reference and the SPARQL page', async () => {
    const { page } = browser;
    const answer = await page.goto(`${node.url}/`);
    expect(answer?.status()).to.equal(200);
    expect(await page.title()).to.equal('Supply-chain data-space node');
    for (const href of ['/console', '/docs', `${API}/sparql`])
      expect(await page.locator(`main a[href="${href}"]`).count(), href).to.equal(1);
    await Promise.all([page.waitForURL((url) => url.pathname.startsWith('/console')), page.click('main a[href="/console"]')]);
  });

  it('sends a visitor to the login page, logs in through the API and lists the consignments it may read', async () => {
    const { page } = browser;
    await page.goto(`${node.url}/console`);
    expect(new URL(page.url()).pathname).to.equal('/console/login');
    await page.fill('input[name=email]', USERS.forwarder.email);
    await page.fill('input[name=password]', 'wrong password');
    await page.click('button[type=submit]');
    await page.waitForSelector('#login-problem:not([hidden])');
    expect(await page.locator('#login-problem').textContent()).to.match(/Wrong email or password/);

    await logIn('forwarder', '/console/consignments');
    expect(new URL(page.url()).pathname).to.equal('/console/consignments');
    const rows = await page.locator('#consignments tbody tr').allTextContents();
    for (const c of [shipment, ...others]) expect(rows.join('\n')).to.include(c.identifier);
    await browser.screenshot('console-consignments');
  });

  it('pages the list and finds one consignment by its identifier', async () => {
    const { page } = browser;
    await page.goto(`${node.url}/console/consignments?limit=3`);
    const first = await page.locator('#consignments tbody tr').allTextContents();
    expect(first).to.have.length(3);
    await page.click('a[rel=next]');
    const second = await page.locator('#consignments tbody tr').allTextContents();
    expect(second).to.have.length(1);
    expect(first.join()).to.not.include(second[0]);

    await page.fill('input[name=q]', shipment.identifier);
    await page.click('form.search button');
    const found = await page.locator('#consignments tbody tr').allTextContents();
    expect(found).to.have.length(1);
    expect(found[0]).to.include(shipment.globalId);
  });

  it('opens a consignment as a timeline with events, documents and their revisions, system events and signal deliveries', async () => {
    const { page } = browser;
    await page.click(`#consignments a:text("${shipment.identifier}")`);
    await page.waitForSelector('#timeline');
    const timeline = (await page.locator('#timeline li').allTextContents()).join('\n');
    expect(timeline).to.include('Event despatched');
    expect(timeline).to.include('at Felixstowe GBFXT');
    expect(timeline).to.include('Document INV-1 revision 2');
    expect(timeline).to.include('earlier revisions 1');
    expect(timeline).to.match(/System CREATE/);
    const deliveries = (await page.locator('#deliveries tbody tr').allTextContents()).join('\n');
    expect(deliveries).to.include('GB Border Force');
    expect(deliveries).to.include('delivered');

    // Each revision's link downloads that revision's file through the API's own href.
    const links = page.locator('#documents a.download');
    expect(await links.count()).to.equal(2);
    for (const [i, bytes] of INVOICE.entries()) {
      const [download] = await Promise.all([page.waitForEvent('download'), links.nth(i).click()]);
      expect(readFileSync(await download.path())).to.deep.equal(bytes);
    }
    await browser.screenshot('console-timeline');
  });

  it('grants a policy that lets a border agency read, refuses a malformed one, and withdraws it', async () => {
    const { page } = browser;
    const borderReads = async () => (await node.as('border', 'GET', `${API}/consignments/${encodeURIComponent(shipment.globalId)}`)).status;
    expect(await borderReads()).to.equal(404);
    await page.click('nav a:text("Policies")');
    await page.selectOption('#grant select[name=role]', 'locationOperator');
    await page.fill('#grant input[name=countries]', 'GB');
    await page.click('#grant button[type=submit]');
    expect(await page.locator('.notice.error').textContent()).to.match(/locationOperator/);
    expect(await page.locator('#policies').count()).to.equal(0);

    await page.selectOption('#grant select[name=role]', 'borderAgency');
    await page.fill('#grant input[name=countries]', 'GB');
    await page.click('#grant button[type=submit]');
    expect(await page.locator('.notice.ok').textContent()).to.equal('Policy granted.');
    expect(await page.locator('#policies tbody tr').count()).to.equal(1);
    expect(await page.locator('#policies tbody tr').textContent()).to.include('borderAgency');
    await browser.screenshot('console-policies');
    expect(await borderReads()).to.equal(200);

    await page.click('#policies button:text("Withdraw")');
    expect(await page.locator('.notice.ok').textContent()).to.equal('Policy withdrawn.');
    expect(await page.locator('#policies').count()).to.equal(0);
    expect(await borderReads()).to.equal(404);
  });

  it('shows a border agency the signals delivered to its endpoint, but not a consignment no policy covers', async () => {
    const { page } = browser;
    await page.click('nav button:text("Log out")');
    expect(new URL(page.url()).pathname).to.equal('/console/login');
    await logIn('border', '/console/deliveries');
    expect(await page.locator('#endpoint').textContent()).to.equal(receiver.url);
    const rows = (await page.locator('#received tbody tr').allTextContents()).join('\n');
    expect(rows).to.include(shipment.globalId);
    expect(rows).to.include('delivered');
    await browser.screenshot('console-deliveries');
    await page.click(`#received a:text("${shipment.globalId}")`);
    expect(await page.locator('.notice.error').textContent()).to.include('is visible to your organisation');
    expect(await page.locator('#consignments').count()).to.equal(0);
  });

  it('serves the API reference from /docs with every operation of /openapi.json', async () => {
    const { page } = browser;
    await page.goto(`${node.url}/docs`);
    await page.waitForSelector('.opblock-summary-path');
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    const document = (await node.request('GET', '/openapi.json')).body;
    const operations = Object.values(document.paths as Record<string, object>).reduce((n: number, item) => n + Object.keys(item).length, 0);
    expect(paths).to.have.length(operations);
    expect(paths.map((p) => p.replace(/\u200b/g, ''))).to.include(`${API}/inbox`);
    await browser.screenshot('docs');
  });

  it('gives a signed-in browser the YASGUI page on the SPARQL endpoint and runs an example query with its session', async () => {
    const { page } = browser;
    await logIn('forwarder', `${API}/sparql`);
    await page.waitForSelector('.yasqe .CodeMirror');
    const tabs = await page.locator('.tabsList .tab').allTextContents();
    expect(tabs.join('|')).to.include('Consignments I can see');
    expect(tabs.join('|')).to.include('Events of a consignment');
    expect(tabs.join('|')).to.include('Documents and their revisions');
    await page.click('.yasqe_queryButton');
    await page.waitForSelector('.yasr table tbody tr');
    const results = (await page.locator('.yasr table tbody').textContent()) ?? '';
    for (const c of [shipment, ...others]) expect(results).to.include(c.globalId);
    await browser.screenshot('sparql');
  });
});
