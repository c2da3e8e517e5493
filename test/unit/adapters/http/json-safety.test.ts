import { expect } from 'chai';
import { jsonProblem } from '../../../../src/adapters/http/json-safety.js';
import { dataUrlMediaTypeProblem } from '../../../../src/core/documents/data-url-media-type.js';

describe('jsonProblem', () => {
  const rows: [string, string, string | undefined][] = [
    ['plain JSON', '{"a":[1,"x",{"b":null}]}', undefined],
    ['a paired surrogate (emoji)', '{"a":"\\ud83d\\ude00"}', undefined],
    ['__proto__ deep inside', '{"a":[{"b":{"__proto__":{}}}]}', '$.a[0].b.__proto__'],
    ['constructor', '{"constructor":1}', '$.constructor'],
    ['a lone high surrogate', '{"a":["ok","x\\ud800"]}', '$.a[1]'],
    ['a lone low surrogate at the start', '"\\udc00abc"', '$'],
    ['a lone surrogate in a key', '{"\\ud800":1}', '$.\ufffd'],
  ];
  for (const [name, json, path] of rows) {
    it(`${path ? 'finds' : 'accepts'} ${name}`, () => expect(jsonProblem(JSON.parse(json))?.path).to.equal(path));
  }

  it('walks 100,000 levels without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}"\\ud800"${']'.repeat(100_000)}`);
    expect(jsonProblem(deep)?.message).to.contain('surrogate');
  });
});

describe('dataUrlMediaTypeProblem', () => {
  const rows: [string, boolean][] = [
    ['data:,hello', false],
    ['data:text/plain;base64,QQ==', false],
    ['data:application/vnd.ms-excel;charset=utf-8,x', false],
    ['data:text/html\u0001x;base64,QUJD', true],
    ['data:text/html\r\nx-injected: 1;base64,QUJD', true],
    // % is a token character: literally "text%0a/html", a harmless header value.
    ['data:text%0a/html,x', false],
    ['data:nonsense,x', true],
    ['https://files.example/a.pdf', false],
  ];
  for (const [uri, refused] of rows) {
    it(`${refused ? 'refuses' : 'accepts'} ${JSON.stringify(uri)}`, () =>
      expect(dataUrlMediaTypeProblem(uri) !== undefined).to.equal(refused));
  }
});
