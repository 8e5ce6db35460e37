import { ConfigError } from '@memory/platform';
import type { MemoryApiTarget } from './memory-api.js';

export interface McpStdioConfig extends MemoryApiTarget {
  fileRoot?: string;
}

const REQUIRED = {
  MEMORY_URL: 'the service\'s base URL, e.g. http://127.0.0.1:8080',
  MEMORY_API_KEY: 'the tenant\'s API key',
  MEMORY_END_USER_ID: 'the end user whose memories the tools read and write',
} as const;

/** The stdio server's configuration from its environment, or a ConfigError naming every variable that is missing. */
export function readMcpStdioConfig(env: Record<string, string | undefined>): McpStdioConfig {
  const missing = Object.keys(REQUIRED).filter((name) => !env[name]?.trim()) as Array<keyof typeof REQUIRED>;
  if (missing.length) {
    throw new ConfigError(`set ${missing.map((name) => `${name} (${REQUIRED[name]})`).join(', ')}`);
  }
  const baseUrl = env['MEMORY_URL']!.trim().replace(/\/+$/, '');
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new ConfigError(`MEMORY_URL must be an http(s) URL, e.g. http://127.0.0.1:8080; got ${baseUrl}`);
  }
  const fileRoot = env['MEMORY_MCP_FILE_ROOT']?.trim();
  return {
    baseUrl,
    apiKey: env['MEMORY_API_KEY']!.trim(),
    endUserId: env['MEMORY_END_USER_ID']!.trim(),
    ...(fileRoot ? { fileRoot } : {}),
  };
}
