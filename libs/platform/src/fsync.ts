import { open, type FileHandle } from 'node:fs/promises';

/** Makes a rename, creation or unlink in `dir` durable; a no-op where directories cannot be fsynced. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM') throw error;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Puts on disk the contents of a file another writer left unsynced (LMDB writes its copies without an fsync). */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
