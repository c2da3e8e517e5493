import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger, mayHoldSecrets } from '../../../src/core/logger.js';
import { nth } from '../../helpers/present.js';

class Lines extends Writable {
  readonly lines: Record<string, any>[] = [];
  raw = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.raw += chunk.toString();
    for (const line of chunk.toString().split('\n')) if (line.trim()) this.lines.push(JSON.parse(line));
    done();
  }
}

describe('logger', () => {
  it('tells which fields a redaction path could match', () => {
    expect(mayHoldSecrets({ route: '/x', status: 200, ms: 1.2 })).to.equal(false);
    expect(mayHoldSecrets({ err: { message: 'boom', code: 'E' } })).to.equal(false);
    expect(mayHoldSecrets({})).to.equal(false);
    expect(mayHoldSecrets({ password: 'p' })).to.equal(true);
    expect(mayHoldSecrets({ nested: { secret: 's' } })).to.equal(true);
    expect(mayHoldSecrets({ req: { headers: {} } })).to.equal(true);
    expect(mayHoldSecrets({ headers: { accept: '*/*' } })).to.equal(true);
  });

  it('redacts every path whichever level holds it, and writes other lines as they are', () => {
    const out = new Lines();
    const log = createLogger('info', out);
    log.info('request', { route: '/supply-chain/data-space/consignments', status: 200, ms: 1.5 });
    log.warn('careless', { req: { headers: { cookie: 'access_token=abc', authorization: 'Bearer xyz', accept: 'text/html' } } });
    log.error('careless', { headers: { authorization: 'Bearer def' }, nested: { secret: 's3cret', kept: 'yes' } });
    expect(out.raw).not.to.match(/access_token=abc|Bearer xyz|Bearer def|s3cret/);
    expect(out.lines[0]).to.deep.include({
      level: 30,
      msg: 'request',
      route: '/supply-chain/data-space/consignments',
      status: 200,
      ms: 1.5,
    });
    expect(nth(out.lines, 1).req.headers).to.deep.equal({ cookie: '[redacted]', authorization: '[redacted]', accept: 'text/html' });
    expect(nth(out.lines, 2).headers.authorization).to.equal('[redacted]');
    expect(nth(out.lines, 2).nested).to.deep.equal({ secret: '[redacted]', kept: 'yes' });
  });

  it('keeps the level for both kinds of line', () => {
    const out = new Lines();
    const log = createLogger('warn', out);
    log.info('dropped', { route: '/x' });
    log.info('dropped too', { token: 't' });
    log.warn('kept', { route: '/x' });
    expect(out.lines.map((l) => l.msg)).to.deep.equal(['kept']);
    expect(log.debug).to.equal(undefined);
  });
});
