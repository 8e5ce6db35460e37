import { expect } from 'chai';
import { readMcpStdioConfig } from './stdio-config.js';

describe('readMcpStdioConfig', () => {
  const complete = { MEMORY_URL: 'http://127.0.0.1:8080/', MEMORY_API_KEY: 'acme-key-0123456789abcdef', MEMORY_END_USER_ID: 'alice' };

  it('reads the target and the optional file root', () => {
    expect(readMcpStdioConfig(complete)).to.deep.equal({ baseUrl: 'http://127.0.0.1:8080', apiKey: complete.MEMORY_API_KEY, endUserId: 'alice' });
    expect(readMcpStdioConfig({ ...complete, MEMORY_MCP_FILE_ROOT: '/srv/files' }).fileRoot).to.equal('/srv/files');
  });

  it('names every missing variable and what it is for', () => {
    expect(() => readMcpStdioConfig({ MEMORY_URL: 'http://127.0.0.1:8080', MEMORY_API_KEY: ' ' }))
      .to.throw(/MEMORY_API_KEY \(the tenant's API key\), MEMORY_END_USER_ID \(the end user/);
  });

  it('refuses a URL that is not http(s)', () => {
    expect(() => readMcpStdioConfig({ ...complete, MEMORY_URL: '127.0.0.1:8080' })).to.throw(/MEMORY_URL must be an http\(s\) URL/);
  });
});
