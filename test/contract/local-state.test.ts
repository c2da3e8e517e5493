import { OxigraphStore } from '../../src/adapters/oxigraph/oxigraph-store.js';
import { Sequence } from '../../src/core/catalog/sequence.js';
import { QueryBank } from '../../src/core/queries/query-bank.js';
import { localState } from '../../src/own-state.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { activityIdsContract, CONTRACT_WINDOW } from './activity-ids.contract.js';
import { blobStoreContract } from './blob-store.contract.js';
import { consignmentCatalogContract } from './consignment-catalog.contract.js';
import { jwtSecretContract } from './jwt-secret.contract.js';
import { loginCountersContract } from './login-counters.contract.js';
import { receiverLedgerContract } from './receiver-ledger.contract.js';

const queries = new QueryBank();

/** The ports of a single node's own state (own-state.ts localState: its data dir and memory) against their contracts. */
describe("ports' contracts: a single node's state (data dir, memory)", () => {
  const fresh = () => localState(scratchDir('contract-'), false);

  blobStoreContract(async () => {
    const dir = scratchDir('contract-');
    return { store: localState(dir, false).blobs, again: async () => localState(dir, false).blobs };
  });
  jwtSecretContract(async () => {
    const dir = scratchDir('contract-');
    return { secret: () => localState(dir, false).jwtSecret(), again: () => localState(dir, false).jwtSecret() };
  });
  loginCountersContract(async () => fresh().loginCounters);
  consignmentCatalogContract(async () => {
    const catalog = fresh().catalog(new OxigraphStore(), queries, new Sequence());
    await catalog.complete();
    return catalog;
  });
  receiverLedgerContract(async (store) => fresh().ledger(store, queries));
  // A single node's ids live in its memory, loaded from the store at start: the store is their place.
  activityIdsContract(async () => async (store) => fresh().activityIds(store, queries, CONTRACT_WINDOW));
});
