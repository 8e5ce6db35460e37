import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { RequestError } from '@memory/platform';

/** The largest file add_memory reads: the service's default PDF limit (images have a lower one, which it enforces). */
export const MCP_FILE_MAX_BYTES = 50 * 1024 * 1024;

/**
 * The directory a service's /mcp route reads files from for one end user: their own folder under the operator's root,
 * `<root>/<tenant>/<end user>`, since the route serves every tenant and one agent must not ingest another's files.
 * An id that is not a folder name of its own ('.', '..') gets none, so files stay off for it.
 */
export function endUserFileRoot(fileRoot: string | undefined, tenantId: string, endUserId: string): string | undefined {
  if (!fileRoot || [tenantId, endUserId].some((id) => id === '.' || id === '..')) return undefined;
  return join(fileRoot, tenantId, endUserId);
}

/**
 * The real path of a file the agent asked to ingest, if it lies under the operator's file root. Symbolic links and
 * `..` are resolved first, so a link inside the root cannot lead outside it. Without a root no file is read: an
 * agent could otherwise send any file the server's user can read (keys, configuration) into memory.
 */
export async function allowedFile(fileRoot: string | undefined, requested: string): Promise<string> {
  if (!fileRoot) {
    throw new RequestError(400, 'MCP.FILES_DISABLED', 'reading files is off: the operator has not set MEMORY_MCP_FILE_ROOT; send the memory as text instead');
  }
  const root = await realpath(fileRoot).catch(() => {
    throw new RequestError(400, 'MCP.FILE_ROOT_MISSING', `the file root ${fileRoot} (MEMORY_MCP_FILE_ROOT; for /mcp, the end user's folder under it) does not exist on the server: the operator creates it and puts the files there`);
  });
  const outside = () => new RequestError(400, 'MCP.FILE_NOT_ALLOWED', `${requested} is outside the directory the operator allows (${root}); only files under it can be added`);
  // Checked before and after links are resolved: before, so nothing is said about files outside (not even whether they exist).
  const lexical = resolve(root, requested);
  if (!isUnder(root, lexical)) throw outside();
  const real = await realpath(lexical).catch(() => {
    throw new RequestError(400, 'MCP.FILE_NOT_FOUND', `no file ${requested} under the file root ${root}`);
  });
  if (!isUnder(root, real)) throw outside();
  const info = await stat(real);
  if (!info.isFile()) throw new RequestError(400, 'MCP.FILE_NOT_FOUND', `${requested} is not a regular file`);
  if (info.size > MCP_FILE_MAX_BYTES) {
    throw new RequestError(400, 'MCP.FILE_TOO_LARGE', `${requested} has ${info.size} bytes; the limit is ${MCP_FILE_MAX_BYTES}`);
  }
  return real;
}

function isUnder(root: string, path: string): boolean {
  const inside = relative(root, path);
  return inside !== '' && inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
}
