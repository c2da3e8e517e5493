import { ChangeIndex } from '../../../../src/core/ports/memory-change-source.js';
import { changeWalkCases } from '../../../contract/change-source.contract.js';

describe('change walk (visibility at each point of the journal), in memory', () => {
  changeWalkCases(async () => new ChangeIndex());
});
