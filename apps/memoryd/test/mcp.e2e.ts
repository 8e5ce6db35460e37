import { fileURLToPath } from 'node:url';
import { describeMcpScenarios, mcpFileRoot, underTest } from '@memory/testing';
import { memorydProcess } from './harness.js';

const files = await mcpFileRoot();
after(() => files.remove());

describeMcpScenarios('the MCP tools over stdio and over /mcp, on memoryd (embedded default)', underTest(memorydProcess({ MEMORY_MCP_FILE_ROOT: files.dir })), {
  repoRoot: fileURLToPath(new URL('../../..', import.meta.url)),
  fileRoot: files.dir,
});
