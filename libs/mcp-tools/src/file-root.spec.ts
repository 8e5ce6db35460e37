import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorCode } from '@memory/platform';
import { allowedFile, endUserFileRoot } from './file-root.js';

describe('allowedFile', () => {
  let parent: string;
  let root: string;
  before(() => {
    parent = mkdtempSync(join(tmpdir(), 'mcp-file-root-'));
    root = join(parent, 'allowed');
    mkdirSync(join(root, 'docs'), { recursive: true });
    writeFileSync(join(root, 'docs', 'a.pdf'), '%PDF-1.7');
    writeFileSync(join(root, '..notes.txt'), 'dots in a name, inside');
    writeFileSync(join(parent, 'secret.txt'), 'outside');
    symlinkSync(join(parent, 'secret.txt'), join(root, 'link.txt'));
    symlinkSync(join(root, 'docs', 'a.pdf'), join(root, 'inner-link.pdf'));
  });
  after(() => rmSync(parent, { recursive: true, force: true }));

  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'allowed', errorCode);

  it('allows files under the root, relative or absolute, and links that stay inside', async () => {
    expect(await allowedFile(root, 'docs/a.pdf')).to.equal(join(root, 'docs', 'a.pdf'));
    expect(await allowedFile(root, join(root, 'docs', 'a.pdf'))).to.equal(join(root, 'docs', 'a.pdf'));
    expect(await allowedFile(root, 'inner-link.pdf')).to.equal(join(root, 'docs', 'a.pdf'));
    expect(await allowedFile(root, '..notes.txt')).to.equal(join(root, '..notes.txt'));
  });

  it('refuses paths outside, by .. or by a link, without saying whether they exist', async () => {
    for (const path of ['../secret.txt', 'docs/../../secret.txt', join(parent, 'secret.txt'), 'link.txt', '../no-such-file', '/etc/passwd']) {
      expect(await codeOf(allowedFile(root, path)), path).to.equal('MCP.FILE_NOT_ALLOWED');
    }
  });

  it('says what is missing: the root setting, the root itself, the file, a regular file', async () => {
    expect(await codeOf(allowedFile(undefined, 'docs/a.pdf'))).to.equal('MCP.FILES_DISABLED');
    expect(await codeOf(allowedFile(join(parent, 'nowhere'), 'a.pdf'))).to.equal('MCP.FILE_ROOT_MISSING');
    expect(await codeOf(allowedFile(root, 'docs/b.pdf'))).to.equal('MCP.FILE_NOT_FOUND');
    expect(await codeOf(allowedFile(root, 'docs'))).to.equal('MCP.FILE_NOT_FOUND');
  });
});

describe('endUserFileRoot', () => {
  it('gives each end user of each tenant a folder of their own under the root', () => {
    expect(endUserFileRoot('/srv/files', 'acme', 'alice')).to.equal(join('/srv/files', 'acme', 'alice'));
    expect(endUserFileRoot('/srv/files', 'acme', 'bob')).to.not.equal(endUserFileRoot('/srv/files', 'globex', 'bob'));
  });
  it('reads no file for an id that names no folder of its own, nor without a root', () => {
    expect(endUserFileRoot('/srv/files', 'acme', '..')).to.equal(undefined);
    expect(endUserFileRoot('/srv/files', '.', 'alice')).to.equal(undefined);
    expect(endUserFileRoot(undefined, 'acme', 'alice')).to.equal(undefined);
  });
});
