import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadApiKeys } from './api-keys.js';

describe('loadApiKeys', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'api-keys-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('parses MEMORY_API_KEYS when set and creates no file', () => {
    const keys = loadApiKeys(dir, 'acme-key-0123456789abcdef:acme', () => {});
    expect([...keys.values()]).to.deep.equal(['acme']);
  });

  it('creates one development key, prints it once, and every later process of the data dir agrees on it', () => {
    const printed: string[] = [];
    const first = loadApiKeys(dir, undefined, (line) => printed.push(line));
    const second = loadApiKeys(dir, undefined, (line) => printed.push(line));
    expect([...second.entries()]).to.deep.equal([...first.entries()]);
    expect(printed.filter((line) => line.includes('Development API key'))).to.have.length(1);
    const key = /Bearer (\S+)/.exec(printed.join('\n'))?.[1];
    expect(key).to.be.a('string');
    expect(printed.join('\n').split(key!).length - 1).to.equal(2); // shown in the message and the usage line, then never again
  });
});
