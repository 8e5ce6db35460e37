import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ServiceUnderTest } from './memory-api-scenarios.js';
import { TEST_KEYS as KEYS } from './service-process.js';
import { secretWord } from './scenario-words.js';
import { writePdf } from './test-documents.js';
import { drawReceipt } from './test-images.js';

export interface McpScenarioOptions {
  /** The repository, where `npm --silent --prefix <repoRoot> run mcp` starts the stdio server as the README's host snippets do. */
  repoRoot: string;
  /**
   * The directory the service under test was started with as MEMORY_MCP_FILE_ROOT, given to the stdio server too;
   * the /mcp route reads an end user's files from <root>/<tenant>/<end user> (mcpFileRoot lays out both).
   */
  fileRoot: string;
}

type Transport = 'stdio' | 'streamable-http';

const TOOL_NAMES = ['add_memory', 'delete_memory', 'get_job', 'get_memory', 'list_memories', 'search_memories', 'update_memory'];

/**
 * The MCP tools through the MCP SDK's own client, over stdio (apps/mcp as a child process calling the service's URL)
 * and over the service's Streamable HTTP route /mcp: the memory's whole life, errors as tool errors with the
 * service's codes, tenant and end-user isolation, and the file root.
 */
export function describeMcpScenarios(title: string, service: ServiceUnderTest, options: McpScenarioOptions): void {
  describe(title, function () {
    this.timeout(180_000);
    const clients: Client[] = [];
    before(async () => { await service.start(); });
    after(async () => {
      await Promise.all(clients.map((client) => client.close()));
      await service.stop();
    });

    const stdioArgs = ['--silent', '--prefix', options.repoRoot, 'run', 'mcp'];

    it('the stdio server without its configuration says what to set and exits 2', () => {
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['MEMORY_URL', 'MEMORY_API_KEY', 'MEMORY_END_USER_ID'].includes(name)));
      const run = spawnSync('npm', stdioArgs, { env: { ...env, MEMORY_URL: service.url }, encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).to.equal(2);
      expect(run.stderr).to.include('set MEMORY_API_KEY').and.include('MEMORY_END_USER_ID');
      expect(run.stdout, 'stdout carries only the protocol').to.equal('');
    });

    const connect = async (transport: Transport, apiKey: string, endUserId: string): Promise<Client> => {
      const client = new Client({ name: 'memory-e2e', version: '0.0.0' });
      await client.connect(transport === 'stdio'
        ? new StdioClientTransport({
          command: 'npm',
          args: [...stdioArgs],
          env: { ...process.env as Record<string, string>, MEMORY_URL: service.url, MEMORY_API_KEY: apiKey, MEMORY_END_USER_ID: endUserId, MEMORY_MCP_FILE_ROOT: options.fileRoot },
          stderr: 'ignore',
        })
        : new StreamableHTTPClientTransport(new URL('/mcp', service.url), {
          requestInit: { headers: { authorization: `Bearer ${apiKey}`, 'x-end-user-id': endUserId } },
        }));
      clients.push(client);
      return client;
    };

    for (const transport of ['stdio', 'streamable-http'] as const) {
      describe(`over ${transport}`, () => {
        // The stdio server is one end user's and reads its whole root; /mcp serves everyone, each from their own folder.
        const allowedDir = transport === 'stdio' ? options.fileRoot : join(options.fileRoot, 'acme', 'alice');
        let alice: Client;
        before(async () => { alice = await connect(transport, KEYS.acme, 'alice'); });

        it('lists the seven tools, each with a description and an input schema', async () => {
          const { tools } = await alice.listTools();
          expect(tools.map((tool) => tool.name).sort()).to.deep.equal(TOOL_NAMES);
          for (const tool of tools) {
            expect(tool.description, tool.name).to.be.a('string').with.length.above(80);
            expect(tool.inputSchema.type, tool.name).to.equal('object');
          }
          const search = tools.find((tool) => tool.name === 'search_memories')!;
          expect(search.inputSchema.required).to.deep.equal(['query']);
          expect(Object.keys(search.inputSchema.properties ?? {})).to.include.members(['query', 'strategy', 'limit', 'explain', 'filters']);
        });

        it('adds a memory, waits for its job, finds, reads, lists, corrects and deletes it', async () => {
          const word = secretWord('kumquat');
          const added = await call(alice, 'add_memory', { text: `My locker code at the gym is ${word}`, metadata: { place: 'gym' } });
          expect(added.body.status).to.equal('Accepted');
          const job = await settled(alice, added.body.jobId);
          expect(job.status, JSON.stringify(job)).to.equal('Completed');
          const [id] = job.memoryIds as string[];

          const found = await call(alice, 'search_memories', { query: word, strategy: 'direct_lookup', limit: 5, explain: true });
          const hit = found.body.data.find((h: any) => h.id === id);
          expect(hit, JSON.stringify(found.body)).to.exist;
          expect(hit.explain).to.be.an('object');
          const filteredOut = await call(alice, 'search_memories', { query: word, strategy: 'direct_lookup', filters: { metadata: { place: 'office' } } });
          expect(filteredOut.body.data.map((h: any) => h.id)).not.to.include(id);

          const read = await call(alice, 'get_memory', { id });
          expect(read.body.payload.content).to.include(word);
          expect(read.body.payload.metadata).to.deep.equal({ place: 'gym' });
          const listed = await call(alice, 'list_memories', { limit: 100, metadata: { place: 'gym' } });
          expect(listed.body.data.map((m: any) => m.id)).to.include(id);

          const corrected = await call(alice, 'update_memory', { id, content: `My locker code at the gym is now ${word}9` });
          expect((await settled(alice, corrected.body.jobId)).status).to.equal('Completed');
          const reread = await call(alice, 'get_memory', { id });
          expect(reread.body.payload.content).to.include(`${word}9`);
          expect(reread.body.payload.version).to.equal(2);

          const deleted = await call(alice, 'delete_memory', { id });
          expect((await settled(alice, deleted.body.jobId)).status).to.equal('Completed');
          await expectToolError(alice, 'get_memory', { id }, 404, 'MEMORY.NOT_FOUND');
        });

        it('add_memory with the idempotencyKey of an earlier call answers with that call\'s job instead of storing it twice', async () => {
          const { tools } = await alice.listTools();
          expect(Object.keys(tools.find((tool) => tool.name === 'add_memory')!.inputSchema.properties ?? {})).to.include('idempotencyKey');
          const idempotencyKey = `mcp-${transport}-${secretWord('key')}`;
          const text = `Alice's bike lock code is ${secretWord('padlock')}`;
          const first = await call(alice, 'add_memory', { text, idempotencyKey });
          const again = await call(alice, 'add_memory', { text, idempotencyKey });
          expect(again.body.jobId).to.equal(first.body.jobId);
          expect((await settled(alice, first.body.jobId)).memoryIds).to.have.length(1);
          // The key with other arguments is another request: refused, and the error names the key it was sent with.
          const reused = await expectToolError(alice, 'add_memory', { text: `${text} and 42`, idempotencyKey }, 422, 'IDEMPOTENCY.KEY_REUSED');
          expect(reused.idempotencyKey).to.equal(idempotencyKey);
        });

        it('another end user and another tenant see nothing of it, as if it never existed', async () => {
          const word = secretWord('quince');
          const added = await call(alice, 'add_memory', { text: `Alice hides the spare key under the ${word} pot` });
          const [id] = (await settled(alice, added.body.jobId)).memoryIds as string[];
          for (const [key, user] of [[KEYS.acme, 'bob'], [KEYS.globex, 'alice']] as const) {
            const other = await connect(transport, key, user);
            const found = await call(other, 'search_memories', { query: word, strategy: 'direct_lookup' });
            expect(found.body.data, `${user} of ${key}`).to.deep.equal([]);
            await expectToolError(other, 'get_memory', { id }, 404, 'MEMORY.NOT_FOUND');
            await expectToolError(other, 'get_job', { jobId: added.body.jobId }, 404, 'JOB.NOT_FOUND');
            await expectToolError(other, 'delete_memory', { id: 'mem_not_a_job_of_this_user' }, 404, 'MEMORY.NOT_FOUND');
            expect((await call(other, 'list_memories', {})).body.data.map((m: any) => m.id)).not.to.include(id);
          }
        });

        it('answers a refusal as a tool error with the service\'s status, stable code and message', async () => {
          await expectToolError(alice, 'search_memories', { query: 'anything', filters: { colour: 'red' } }, 400, 'FILTER.UNKNOWN_FIELD');
          await expectToolError(alice, 'update_memory', { id: 'mem_job_1_alice_0' }, 400, 'UPDATE.NOTHING_TO_CHANGE');
          await expectToolError(alice, 'add_memory', { userContext: 'neither text nor a file' }, 400, 'MCP.INVALID_INPUT');
          await expectToolError(alice, 'list_memories', { created_after: 'last tuesday' }, 400, 'LIST.INVALID_FILTER');
        });

        it('adds a PDF and an image from the allowed directory, and refuses any path outside it', async () => {
          const word = secretWord('marmalade');
          const pdf = await call(alice, 'add_memory', { filePath: 'recipes.pdf', metadata: { kind: 'recipe' } });
          expect(pdf.body.jobId).to.match(/^doc_job_/);
          const pdfJob = await settled(alice, pdf.body.jobId);
          expect(pdfJob.status, JSON.stringify(pdfJob)).to.equal('Completed');
          expect(pdfJob.memoryIds).to.have.length(2);
          const image = await call(alice, 'add_memory', { filePath: join(allowedDir, 'receipt.png'), userContext: `Receipt for the ${word} jars` });
          expect(image.body.jobId).to.match(/^img_job_/);
          const imageJob = await settled(alice, image.body.jobId);
          expect(imageJob.status, JSON.stringify(imageJob)).to.equal('Completed');
          const imageMemory = await call(alice, 'get_memory', { id: imageJob.memoryIds[0] });
          expect(imageMemory.body.payload.memory_type).to.equal('image');
          expect(imageMemory.body.payload.content).to.include(word);
          const page = await call(alice, 'get_memory', { id: pdfJob.memoryIds[1] });
          expect(page.body.payload.content).to.include('Quince jelly');
          expect(page.body.payload.metadata).to.deep.equal({ kind: 'recipe' });

          for (const outside of ['../secret.txt', join(allowedDir, '..', 'secret.txt'), 'link-to-secret.txt', '/etc/passwd']) {
            const refused = await expectToolError(alice, 'add_memory', { filePath: outside }, 400, 'MCP.FILE_NOT_ALLOWED');
            expect(refused.error.message).to.include('outside the directory');
          }
          await expectToolError(alice, 'add_memory', { filePath: 'no-such.pdf' }, 400, 'MCP.FILE_NOT_FOUND');
        });

        if (transport === 'streamable-http') {
          it('reads another end user\'s or tenant\'s files for nobody', async () => {
            const aliceFile = join(allowedDir, 'recipes.pdf');
            const bob = await connect(transport, KEYS.acme, 'bob');
            await expectToolError(bob, 'add_memory', { filePath: aliceFile }, 400, 'MCP.FILE_ROOT_MISSING');
            await expectToolError(bob, 'add_memory', { filePath: 'recipes.pdf' }, 400, 'MCP.FILE_ROOT_MISSING');
            const carol = await connect(transport, KEYS.acme, 'carol');
            await expectToolError(carol, 'add_memory', { filePath: aliceFile }, 400, 'MCP.FILE_NOT_ALLOWED');
            const otherTenant = await connect(transport, KEYS.globex, 'alice');
            await expectToolError(otherTenant, 'add_memory', { filePath: aliceFile }, 400, 'MCP.FILE_NOT_ALLOWED');
            await expectToolError(otherTenant, 'add_memory', { filePath: '../../acme/alice/recipes.pdf' }, 400, 'MCP.FILE_NOT_ALLOWED');
          });
        }

        it('refuses a bad API key', async () => {
          if (transport === 'streamable-http') {
            const client = new Client({ name: 'memory-e2e', version: '0.0.0' });
            const refused = await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', service.url), {
              requestInit: { headers: { authorization: 'Bearer not-a-key-of-anyone-at-all', 'x-end-user-id': 'alice' } },
            })).then(() => null, (error: Error) => error);
            expect(refused?.message).to.include('AUTH.INVALID_KEY');
            const noEndUser = await new Client({ name: 'memory-e2e', version: '0.0.0' }).connect(new StreamableHTTPClientTransport(new URL('/mcp', service.url), {
              requestInit: { headers: { authorization: `Bearer ${KEYS.acme}` } },
            })).then(() => null, (error: Error) => error);
            expect(noEndUser?.message).to.include('REQUEST.MISSING_END_USER');
          } else {
            // The stdio server cannot check the key before its first call: the call is refused with the service's 401.
            const stranger = await connect(transport, 'not-a-key-of-anyone-at-all', 'alice');
            await expectToolError(stranger, 'search_memories', { query: 'anything' }, 401, 'AUTH.INVALID_KEY');
          }
        });
      });
    }
  });
}

/**
 * Files for the file-root scenarios: a PDF and an image inside the root (for the stdio server) and inside the folder
 * the /mcp route gives acme's alice (<root>/acme/alice), a secret beside each and a link to it; globex's alice and
 * acme's carol have folders of their own, empty.
 */
export async function mcpFileRoot(): Promise<{ dir: string; remove(): void }> {
  const parent = mkdtempSync(join(tmpdir(), 'memory-mcp-files-'));
  const dir = join(parent, 'allowed');
  const pdf = await writePdf(['Seville orange marmalade: boil the peel for two hours.', 'Quince jelly: strain overnight through muslin.']);
  const png = await drawReceipt();
  for (const [folder, secretBeside] of [[dir, parent], [join(dir, 'acme', 'alice'), join(dir, 'acme')]] as const) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'recipes.pdf'), pdf);
    writeFileSync(join(folder, 'receipt.png'), png);
    writeFileSync(join(secretBeside, 'secret.txt'), 'not for memories');
    symlinkSync(join(secretBeside, 'secret.txt'), join(folder, 'link-to-secret.txt'));
  }
  for (const empty of [join(dir, 'globex', 'alice'), join(dir, 'acme', 'carol')]) mkdirSync(empty, { recursive: true });
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ body: any }> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
  expect(result.isError, `${name}: ${text}`).not.to.equal(true);
  return { body: JSON.parse(text) };
}

/** A tool error: the service's status and error body ({code, message}) in the text, isError set. */
async function expectToolError(client: Client, name: string, args: Record<string, unknown>, status: number, code: string): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
  expect(result.isError, `${name}: ${text}`).to.equal(true);
  const body = JSON.parse(text);
  expect(body.status, text).to.equal(status);
  expect(body.error.code, text).to.equal(code);
  expect(body.error.message).to.be.a('string').and.not.empty;
  return body;
}

/** get_job with the long poll until the job ends. */
async function settled(client: Client, jobId: string): Promise<any> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { body } = await call(client, 'get_job', { jobId, waitMs: 10_000 });
    if (body.status === 'Completed' || body.status === 'Failed') return body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${JSON.stringify(body)}`);
  }
}
