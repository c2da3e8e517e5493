import { expect } from 'chai';
import { datasetFor } from '../../../../src/adapters/sparql-endpoint/engine.js';

describe('datasetFor (the dataset of a SPARQL query)', () => {
  const visible = ['urn:uuid:a', 'urn:uuid:b'];

  it('is every visible graph, as default graph and as named graphs, when the request names none', () => {
    expect(datasetFor(visible)).to.deep.equal({ defaultGraphs: visible, namedGraphs: visible });
  });

  it('keeps only the visible graphs of those the request names, and nothing it does not name', () => {
    expect(datasetFor(visible, { default: ['urn:uuid:a', 'urn:dataspace:graph:registry'], named: [] })).to.deep.equal({
      defaultGraphs: ['urn:uuid:a'],
      namedGraphs: [],
    });
    expect(datasetFor(visible, { default: [], named: ['urn:uuid:b', 'urn:uuid:b', 'urn:uuid:z'] })).to.deep.equal({
      defaultGraphs: [],
      namedGraphs: ['urn:uuid:b'],
    });
  });

  it('is empty for a caller who may see nothing, whatever is named', () => {
    expect(datasetFor([], { default: ['urn:uuid:a'], named: ['urn:uuid:a'] })).to.deep.equal({ defaultGraphs: [], namedGraphs: [] });
    expect(datasetFor([])).to.deep.equal({ defaultGraphs: [], namedGraphs: [] });
  });
});
