import { expect } from 'chai';
import { PostgresReach, silent } from '../../../../src/adapters/postgres/postgres-reach.js';

const error = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('postgres-reach: silence (a cut) takes a replica out of the balancer, a refusal (PostgreSQL down for every replica) does not', () => {
  const cases: [string, Error, boolean][] = [
    ['a statement unanswered past its bound', error('Query read timeout'), true],
    ['a connection unanswered past its bound', error('timeout expired'), true],
    ['the pool giving up on a connection', error('timeout exceeded when trying to connect'), true],
    ['a connection whose start went unanswered', error('Connection terminated due to connection timeout'), true],
    ['the kernel giving up on the route', error('connect ETIMEDOUT', 'ETIMEDOUT'), true],
    ['no route to the host', error('connect EHOSTUNREACH', 'EHOSTUNREACH'), true],
    ['nothing listens (stopped)', error('connect ECONNREFUSED', 'ECONNREFUSED'), false],
    ['the server shutting down', error('terminating connection due to administrator command', '57P01'), false],
    ['the server starting', error('the database system is starting up', '57P03'), false],
    ['a connection the server ended', error('Connection terminated unexpectedly'), false],
    ['a statement refused (the fence)', error('fenced', 'DSF01'), false],
  ];
  for (const [what, failure, isSilent] of cases)
    it(`${what}: ${isSilent ? 'silent' : 'an answer'}`, () => expect(silent(failure)).to.equal(isSilent));

  it('is unreachable once asks went unanswered for the grace after the first timed out, and reachable again at the next answer', async () => {
    const reach = new PostgresReach(50);
    reach.failed(error('Query read timeout'));
    expect(reach.reachable(), 'within the grace').to.equal(true);
    await new Promise((ok) => setTimeout(ok, 60));
    reach.failed(error('timeout expired'));
    expect(reach.reachable(), 'past it').to.equal(false);
    reach.answered();
    expect(reach.reachable()).to.equal(true);
    reach.failed(error('Query read timeout'));
    await new Promise((ok) => setTimeout(ok, 60));
    reach.failed(error('connect ECONNREFUSED', 'ECONNREFUSED'));
    expect(reach.reachable(), 'a refusal is an answer').to.equal(true);
  });
});
