import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import oxigraph from 'oxigraph';
import { OxigraphStore } from '../../../../../src/adapters/oxigraph/oxigraph-store.js';
import { loadNQuadsFile } from '../../../../../src/adapters/oxigraph/recovery/recovery.js';
import { UNIT_SEPARATOR } from '../../../../../src/adapters/oxigraph/recovery/snapshot-files.js';
import { nth } from '../../../../helpers/present.js';

/** Units as a snapshot writes them: each links a blank node to a named one, with non-ASCII text. */
function units(count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    [
      `<urn:s:${i}> <urn:p:has> _:b${i} <urn:g:${i % 3}> .`,
      `_:b${i} <urn:p:label> "Kühlcontainer ${i} — 冷蔵"@de <urn:g:${i % 3}> .`,
      '',
    ].join('\n'),
  );
}

/** Each named subject's blank node still carries its own label: no unit was split between loads. */
function expectIntact(store: OxigraphStore, count: number): void {
  expect(store.store.size).to.equal(count * 2);
  for (let i = 0; i < count; i++) {
    const link = nth(store.store.match(oxigraph.namedNode(`urn:s:${i}`), null, null, null), 0);
    const labels = store.store.match(link.object, null, null, null);
    expect(labels.map((q) => q.object.value)).to.deep.equal([`Kühlcontainer ${i} — 冷蔵`]);
  }
}

describe('store: loading an N-Quads file in chunks', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-load-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('cuts only at separator lines, whatever the chunk size, so no blank node or character is split', () => {
    const path = join(dir, 'snapshot.nq');
    writeFileSync(path, units(40).join(UNIT_SEPARATOR));
    // Chunk sizes that put chunk ends inside separators, inside multi-byte characters and inside lines.
    for (const chunk of [1, 2, 3, 5, 7, 64, 97, 1000, 1 << 20]) {
      const store = new OxigraphStore();
      loadNQuadsFile(path, store, true, chunk);
      expectIntact(store, 40);
    }
  });

  it('loads a file without separators whole, and checks it when not trusted', () => {
    const path = join(dir, 'import.nq');
    writeFileSync(path, units(25).join(''));
    const store = new OxigraphStore();
    loadNQuadsFile(path, store, false, 16);
    expectIntact(store, 25);

    writeFileSync(path, `${units(3).join(UNIT_SEPARATOR)}${UNIT_SEPARATOR}<urn:s:x> <not an iri> "x" .\n`);
    expect(() => loadNQuadsFile(path, new OxigraphStore(), false, 16)).to.throw();
  });
});
