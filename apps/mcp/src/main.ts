import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMemoryMcpServer, memoryApi, readMcpStdioConfig, type McpStdioConfig } from '@memory/mcp-tools';
import { errorMessage } from '@memory/platform';

// stdout carries the protocol: everything for people goes to stderr.
let config: McpStdioConfig;
try {
  config = readMcpStdioConfig(process.env);
} catch (error) {
  process.stderr.write(`memory MCP server: ${errorMessage(error)}\n`);
  process.exit(2);
}

const server = createMemoryMcpServer({ api: memoryApi(config), ...(config.fileRoot ? { fileRoot: config.fileRoot } : {}) });
await server.connect(new StdioServerTransport());
process.stderr.write(`memory MCP server on stdio, for ${config.endUserId} at ${config.baseUrl}${config.fileRoot ? `, files under ${config.fileRoot}` : ''}\n`);
