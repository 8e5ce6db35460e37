import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { unusedPort } from '@memory/testing';
import { createMemoryMcpServer } from './tools.js';
import { memoryApi } from './memory-api.js';


describe('the MCP tools when the service cannot answer', () => {
  let client: Client;
  before(async () => {
    const api = memoryApi({ baseUrl: `http://127.0.0.1:${await unusedPort()}`, apiKey: 'acme-key-0123456789abcdef', endUserId: 'alice' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMemoryMcpServer({ api }).connect(serverSide);
    client = new Client({ name: 'spec', version: '0.0.0' });
    await client.connect(clientSide);
  });
  after(() => client.close());

  const errorOf = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).to.equal(true);
    return JSON.parse((result.content as Array<{ text: string }>)[0]!.text);
  };

  it('answers an unreachable service as a tool error with SERVICE.UNREACHABLE, not an exception', async () => {
    const body = await errorOf('search_memories', { query: 'anything' });
    expect(body.status).to.equal(503);
    expect(body.error.code).to.equal('SERVICE.UNREACHABLE');
  });

  it('names the Idempotency-Key of a failed add_memory, and sends the one it is given, so a retry cannot store it twice', async () => {
    const failed = await errorOf('add_memory', { text: 'Alice keeps bees' });
    expect(failed.error.code).to.equal('SERVICE.UNREACHABLE');
    expect(failed.idempotencyKey).to.match(/^[0-9a-f-]{36}$/);
    const retried = await errorOf('add_memory', { text: 'Alice keeps bees', idempotencyKey: failed.idempotencyKey });
    expect(retried.idempotencyKey).to.equal(failed.idempotencyKey);
    const unkeyed = await errorOf('search_memories', { query: 'bees' });
    expect(unkeyed).to.not.have.property('idempotencyKey');
  });

  it('reads no file when the operator has set no file root, before calling the service', async () => {
    const body = await errorOf('add_memory', { filePath: '/etc/passwd' });
    expect(body.error.code).to.equal('MCP.FILES_DISABLED');
    expect(body.error.message).to.include('MEMORY_MCP_FILE_ROOT');
  });

  it('refuses arguments outside a tool\'s input schema', async () => {
    const result = await client.callTool({ name: 'get_job', arguments: { jobId: 'job_1_alice', waitMs: 60_000 } });
    expect(result.isError).to.equal(true);
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    expect(text).to.include('waitMs').and.not.include('SERVICE.UNREACHABLE');
  });
});
