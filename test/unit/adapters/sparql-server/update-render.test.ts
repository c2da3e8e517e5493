import { expect } from 'chai';
import oxigraph from 'oxigraph';
import type { ChangeOp } from '../../../../src/core/ports/quad-store.js';
import { FENCED_INSERT_LINES, UpdateRender } from '../../../../src/adapters/sparql-server/update-render.js';
import { seededRandom } from '../../../helpers/seeded-random.js';

/** Every quad of a store after `update`, sorted, as N-Quads lines. */
function after(update: string): string[] {
  const store = new oxigraph.Store();
  store.update(update);
  return store
    .match()
    .map((q) => `${q.subject.toString()} ${q.predicate.toString()} ${q.object.toString()} ${q.graph.toString()}`)
    .sort();
}

const clear = (subject: string, graph: string): ChangeOp => ({ op: 'deleteMatching', subject, predicate: null, object: null, graph });
const usage = (org: string, count: number): ChangeOp[] => [
  clear(`<urn:usage:${org}>`, 'urn:g:usage'),
  {
    op: 'insert',
    nquads: `<urn:usage:${org}> <urn:p:count> "${count}" <urn:g:usage> .\n<urn:usage:${org}> <urn:p:org> <urn:org:${org}> <urn:g:usage> .\n`,
  },
];

describe('store: SPARQL Update text for a batch of changes', () => {
  const render = new UpdateRender();
  /** The batch as it would be sent one change per request, in order: what the joined text must equal. */
  const oneByOne = (changes: ChangeOp[][]) => changes.map((ops) => render.joined([render.prepared({ ops })])).join(' ;\n');

  it('sends a record rewritten by every change of a batch as one clear, first, and the inserts as one INSERT DATA', () => {
    const changes = Array.from({ length: 15 }, (_, n) => [
      { op: 'insert' as const, nquads: `<urn:c:${n}> <urn:p:id> "${n}" <urn:g:c${n}> .\n` },
      ...usage('a', n + 1),
      ...usage('b', n + 1),
    ]);
    const joined = render.joined(changes.map((ops) => render.prepared({ ops })));
    expect(joined.match(/DELETE/g)).to.have.length(2);
    // Was 30 DELETEs splitting the inserts into 31 INSERT DATA.
    expect(joined.match(/INSERT DATA/g)).to.have.length(1);
    expect(joined.lastIndexOf('DELETE')).to.be.below(joined.indexOf('INSERT DATA'));
    expect(after(joined)).to.deep.equal(after(oneByOne(changes)));
    expect(after(joined).filter((q) => q.includes('count'))).to.deep.equal([
      '<urn:usage:a> <urn:p:count> "15" <urn:g:usage>',
      '<urn:usage:b> <urn:p:count> "15" <urn:g:usage>',
    ]);
  });

  it('leaves the same quads as sending the changes one by one, over random batches of clears, deletes, drops and inserts', () => {
    const random = seededRandom(38);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const subjects = ['<urn:s:1>', '<urn:s:2>', '<urn:s:3>'];
    const graphs = ['urn:g:1', 'urn:g:2'];
    const op = (): ChangeOp => {
      const r = random();
      if (r < 0.35) return clear(pick(subjects), pick(graphs));
      if (r < 0.4) return { op: 'deleteMatching', subject: null, predicate: '<urn:p:a>', object: null, graph: pick(graphs) };
      if (r < 0.45) return { op: 'deleteMatching', subject: pick(subjects), predicate: '<urn:p:b>', object: null, graph: pick(graphs) };
      if (r < 0.5) return { op: 'dropGraph', graph: pick(graphs) };
      const lines = Array.from(
        { length: 1 + Math.floor(random() * 3) },
        () => `${pick(subjects)} ${pick(['<urn:p:a>', '<urn:p:b>'])} "${Math.floor(random() * 4)}" <${pick(graphs)}> .\n`,
      );
      return { op: 'insert', nquads: lines.join('') };
    };
    for (let round = 0; round < 200; round++) {
      const start = {
        op: 'insert' as const,
        nquads: subjects.map((s) => `${s} <urn:p:a> "old" <urn:g:1> .\n${s} <urn:p:b> "old" <urn:g:2> .\n`).join(''),
      };
      const changes = Array.from({ length: 1 + Math.floor(random() * 8) }, () => Array.from({ length: 1 + Math.floor(random() * 4) }, op));
      const joined = render.joined([render.prepared({ ops: [start] }), ...changes.map((ops) => render.prepared({ ops }))]);
      expect(after(joined), joined).to.deep.equal(after(oneByOne([[start], ...changes])));
    }
  });

  it("fences a replica set's writer's updates on its epoch: applied whole while the store holds it, not at all once it holds another", () => {
    const epochTriple = (n: number) =>
      `INSERT DATA { GRAPH <urn:dataspace:replica> { <urn:dataspace:replica:writer> <https://w3id.org/supply-chain-dataspace/ns#writerEpoch> ${n} } }`;
    const base = `${epochTriple(7)} ;\nINSERT DATA { GRAPH <urn:g:1> { <urn:s:1> <urn:p:a> "old" . } GRAPH <urn:g:2> { <urn:s:2> <urn:p:a> "old" . } }`;
    const changes: ChangeOp[][] = [
      [clear('<urn:s:1>', 'urn:g:1'), { op: 'insert', nquads: '<urn:s:1> <urn:p:a> "new" <urn:g:1> .\n' }],
      [
        { op: 'dropGraph', graph: 'urn:g:2' },
        { op: 'deleteMatching', subject: null, predicate: '<urn:p:a>', object: null, graph: 'urn:g:3' },
      ],
    ];
    const fenced = new UpdateRender(7);
    const text = fenced.joined(changes.map((ops) => fenced.prepared({ ops })));
    expect(text).not.to.match(/INSERT DATA \{|DROP SILENT/);
    expect(after(`${base} ;\n${text}`)).to.deep.equal(after(`${base} ;\n${oneByOne(changes)}`));
    const deposed = new UpdateRender(6);
    const stale = deposed.joined(changes.map((ops) => deposed.prepared({ ops })));
    expect(after(`${base} ;\n${stale}`)).to.deep.equal(after(base));
    expect(() => new UpdateRender(1.5)).to.throw('not an epoch');
  });

  it('cuts a fenced insert into templates of at most FENCED_INSERT_LINES triples (Virtuoso refuses longer ones: SP031), with the same result', () => {
    const base = `INSERT DATA { GRAPH <urn:dataspace:replica> { <urn:dataspace:replica:writer> <https://w3id.org/supply-chain-dataspace/ns#writerEpoch> 7 } }`;
    const lines = (graph: string, n: number) =>
      Array.from({ length: n }, (_, i) => `<urn:s:${i % 7}> <urn:p:${i}> "${graph} ${i}" <urn:g:${graph}> .\n`).join('');
    const changes: ChangeOp[][] = [
      [{ op: 'insert', nquads: lines('a', 1_700) }],
      [clear('<urn:s:1>', 'urn:g:b'), { op: 'insert', nquads: lines('b', 600) + lines('c', 900) }],
    ];
    const fenced = new UpdateRender(7);
    const text = fenced.joined(changes.map((ops) => fenced.prepared({ ops })));
    const templates = text.split(/ ;\n/).filter((op) => op.includes('INSERT {'));
    const sizes = templates.map((op) => op.split('\n').filter((line) => /^<urn:s:.*\.$/.test(line)).length);
    expect(Math.max(...sizes), sizes.join(', ')).to.be.at.most(FENCED_INSERT_LINES);
    expect(sizes.reduce((a, b) => a + b, 0)).to.equal(1_700 + 600 + 900);
    expect(after(`${base} ;\n${text}`)).to.deep.equal(after(`${base} ;\n${oneByOne(changes)}`));
  });

  it("with the server's guard, heads a writer's request with one guard and keeps the plain templates after it", () => {
    const changes: ChangeOp[][] = [...Array.from({ length: 3 }, (_, i) => usage('a', i)), [{ op: 'dropGraph', graph: 'urn:g:2' }]];
    const guarded = new UpdateRender(7, true);
    const text = guarded.joined(changes.map((ops) => guarded.prepared({ ops })));
    const [guard, ...rest] = text.split(' ;\n');
    expect(guard).to.include('bif:signal').and.include('FILTER (?epoch = 7)');
    // Everything after the guard is what an unfenced store sends (oxigraph knows no bif:, so compared as text).
    expect(rest.join(' ;\n')).to.equal(render.joined(changes.map((ops) => render.prepared({ ops }))));
    expect(text.match(/bif:signal\('DSF01'/g)).to.have.length(1);
    expect(guarded.joined([])).to.equal('');
  });
});
