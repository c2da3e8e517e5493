import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { scratchDir } from '../../../helpers/scratch-dirs.js';
import { main } from '../../../../src/adapters/cli/validate.js';
import { fixturesDir } from '../../../helpers/fixtures.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => void out.push(a.join(' '));
  console.error = (...a: unknown[]) => void err.push(a.join(' '));
  try {
    const code = await main(args);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

describe('dataspace-validate (CLI)', function () {
  this.timeout(20000);
  const valid = join(fixturesDir, 'valid', 'create-rich-consignment.json');
  const invalid = join(fixturesDir, 'invalid', 'consignor-unknown-country-code.json');

  it('exits 0 and says so when every file conforms', async () => {
    const { code, out } = await run([valid, join(fixturesDir, 'valid', 'bare-event.json')]);
    expect(code).to.equal(0);
    expect(out).to.include('create-rich-consignment.json: conforms');
    expect(out).to.include('2 of 2 files conform');
  });

  it('exits 1 and lists each violation with its path, value and shape', async () => {
    const { code, out } = await run([valid, invalid]);
    expect(code).to.equal(1);
    expect(out).to.include('consignor-unknown-country-code.json: does not conform (1 violation)');
    expect(out).to.include('consignor.postalAddress.tradeAddressCountryId = "unece:CountryId#XX"');
    expect(out).to.include('dsh:CountryCode');
  });

  it('rejects files that are not JSON, break the envelope, or lose data in JSON-LD', async () => {
    const dir = scratchDir('validate-cli-');
    writeFileSync(join(dir, 'not-json.json'), '{"type": ');
    writeFileSync(
      join(dir, 'no-actor.json'),
      JSON.stringify({ '@context': ['https://www.w3.org/ns/activitystreams'], type: 'Create', object: {} }),
    );
    writeFileSync(
      join(dir, 'unknown-term.json'),
      JSON.stringify({ '@context': 'https://vocabulary.uncefact.org/unece-context-D23B.jsonld', type: 'Consignment', colour: 'red' }),
    );
    const { code, out } = await run(['--json', ...['not-json', 'no-actor', 'unknown-term'].map((f) => join(dir, `${f}.json`))]);
    expect(code).to.equal(1);
    const lines = out.split('\n').map((l) => JSON.parse(l) as { conforms: boolean; error: { status?: number; message: string } });
    expect(lines.map((l) => l.conforms)).to.deep.equal([false, false, false]);
    expect(lines[0]!.error.message).to.match(/JSON/);
    expect(lines[1]!.error.status).to.equal(400);
    expect(lines[2]!.error.status).to.equal(422);
    expect(lines[2]!.error.message).to.include('colour');
  });

  it('answers --help, and exits 2 without files', async () => {
    expect((await run(['--help'])).code).to.equal(0);
    expect((await run([])).code).to.equal(2);
    expect((await run(['--yaml', valid])).code).to.equal(2);
  });
});
