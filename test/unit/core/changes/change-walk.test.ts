import { ChangeIndex } from '../../../../src/core/ports/memory-change-source.js';
import { changeWalkCases } from '../../../helpers/change-walk-cases.js';

describe('change walk (visibility at each point of the journal), in memory', () => {
  changeWalkCases(async () => new ChangeIndex());
});
