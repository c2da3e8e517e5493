import { localState } from '../../src/own-state.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { blobStoreContract } from './blob-store.contract.js';
import { jwtSecretContract } from './jwt-secret.contract.js';
import { loginCountersContract } from './login-counters.contract.js';

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
});
