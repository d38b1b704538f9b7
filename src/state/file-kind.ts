/** What kind of file system entry a stat describes, in words for a person. */
import type { Stats } from 'node:fs';

/** Every kind of entry a state directory can be found holding. */
export type FileKind = 'regular file' | 'directory' | 'symbolic link' | 'FIFO (named pipe)' | 'socket' | 'character device' | 'block device' | 'special file';

/** The kind of entry `stat` (from lstat, so a link is seen as one) describes. */
export function fileKindOf(stat: Stats): FileKind {
  if (stat.isFile()) return 'regular file';
  if (stat.isDirectory()) return 'directory';
  if (stat.isSymbolicLink()) return 'symbolic link';
  if (stat.isFIFO()) return 'FIFO (named pipe)';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice()) return 'character device';
  if (stat.isBlockDevice()) return 'block device';
  return 'special file';
}
