import { createHash } from 'node:crypto';
import { join } from 'node:path';

// Longer tenant names are hashed so a directory name never nears the 255-byte limit of common filesystems.
const MAX_GROUP_NAME = 120;

/**
 * Where a key lives on disk: `<root>/blobs/<tenant>/<hh>/<sha256(key)>`. The file name is a hash of the whole
 * key, so no key can name a path outside the root, keys that are prefixes of each other never collide as a file
 * and a directory, and keys differing only in case stay apart on case-insensitive filesystems. The first key
 * segment (the tenant) stays readable as a directory so an operator can see, size or remove one tenant's blobs.
 */
export class Layout {
  readonly blobsDir: string;
  /** Temporary files share the filesystem of the blobs so a rename into place is atomic. */
  readonly tmpDir: string;

  constructor(readonly root: string) {
    this.blobsDir = join(root, 'blobs');
    this.tmpDir = join(root, 'tmp');
  }

  locate(key: string): { dir: string; file: string } {
    const digest = createHash('sha256').update(key, 'utf8').digest('hex');
    const dir = join(this.groupDir(key), digest.slice(0, 2));
    return { dir, file: join(dir, digest) };
  }

  /** The directory of every blob whose key starts with the same first segment (the tenant) as `key`. */
  groupDir(key: string): string {
    return join(this.blobsDir, groupName(key.split('/', 1)[0]!));
  }
}

function groupName(segment: string): string {
  // encodeURIComponent leaves no "/" or "\"; "." and ".." segments never pass key validation.
  const encoded = encodeURIComponent(segment);
  if (encoded.length <= MAX_GROUP_NAME) return encoded;
  // "#" is always percent-encoded above, so a hashed name cannot equal an encoded one.
  return `#${createHash('sha256').update(segment, 'utf8').digest('hex')}`;
}
