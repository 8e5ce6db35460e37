import { isIPv6 } from 'node:net';
import { Router, json, type Request } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMemoryMcpServer, endUserFileRoot, memoryApi } from '@memory/mcp-tools';
import { RequestError } from '@memory/platform';
import { authenticate, type ApiKeyRegistry } from '../auth.js';
import { REQUEST_LIMITS } from '../limits.js';
import { validateEndUserId } from '../validation.js';
import { requireJson } from './guards.js';

export interface McpRouteOptions {
  /** MEMORY_MCP_FILE_ROOT: add_memory reads an end user's files from <root>/<tenant>/<end user>; unset, it reads none. */
  fileRoot?: string;
}

/**
 * POST /mcp: the MCP tools over Streamable HTTP, stateless (a server and transport per request, no session), with
 * the /v1 routes' Bearer key and x-end-user-id. The tools call this process's own HTTP API over loopback, so a tool
 * call is validated, limited and made idempotent exactly as the same call from any client, in both modes.
 */
export function mcpRoutes(apiKeys: ApiKeyRegistry, options: McpRouteOptions): Router {
  const router = Router();
  router.post('/mcp', requireJson, json({ limit: REQUEST_LIMITS.jsonBodyBytes }), async (req, res) => {
    const tenantId = authenticate(apiKeys, req.headers.authorization);
    const endUserId = validateEndUserId(req.header('x-end-user-id'));
    const apiKey = req.headers.authorization!.replace(/^Bearer\s+/i, '');
    const fileRoot = endUserFileRoot(options.fileRoot, tenantId, endUserId);
    const server = createMemoryMcpServer({
      api: memoryApi({ baseUrl: loopbackUrl(req), apiKey, endUserId }),
      jobWaitMaxMs: REQUEST_LIMITS.jobWaitMaxMs,
      ...(fileRoot ? { fileRoot } : {}),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE).
  router.all('/mcp', (_req, res) => {
    res.setHeader('Allow', 'POST');
    throw new RequestError(405, 'MCP.METHOD_NOT_ALLOWED', 'this MCP endpoint is stateless: send JSON-RPC messages with POST');
  });
  return router;
}

/** The address this request reached the process on: the process can reach itself there, whatever HOST it bound. */
function loopbackUrl(req: Request): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  return `http://${isIPv6(address) ? `[${address}]` : address}:${req.socket.localPort}`;
}
