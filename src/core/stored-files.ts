/**
 * Which files are ctxshed's stored texts, so that a tool call that reads one is a read-back (the
 * restore rule, core/shed/restore-call.ts, and refault counting, detect-refaults.ts): an elided
 * text, `<sha256>.txt` in any folder (a stub names its text's path, which the proxy chooses), and
 * `<folder>/<sha256>.<ext>` of each folder an epoch kind gives its originals back from. The kinds'
 * registry adds those as it registers each kind (core/epochs/kind-info.ts: its folder on disk, its
 * `restorable.ext` and `md` when it renders them), built-in or not; this layer cannot import it.
 * A `.md` or `.json` named by a sha256 anywhere else is the client's own file.
 */

/** Stored folders (by name on disk) and the extensions a read-back of each has. */
const FOLDERS = new Map<string, ReadonlySet<string>>();

/** Adds `folder`'s files of `exts` to the stored texts; returns its removal (a test's kind). */
export function addStoredFolder(folder: string, exts: readonly string[]): () => void {
  const entry = new Set(exts);
  FOLDERS.set(folder, entry);
  return () => {
    if (FOLDERS.get(folder) === entry) FOLDERS.delete(folder);
  };
}

const IN_ANY_FOLDER = /^([0-9a-fA-F]{64})\.txt$/;
const IN_STORED_FOLDER = /^([0-9a-f]{64})\.([a-z]+)$/;

/** The lowercase sha256 of the stored text `path` names (its last two segments decide), or undefined. */
export function storedShaOfPath(path: string): string | undefined {
  // Every built-in kind that gives its originals back adds its folder; none known means the registry never loaded, which must not pass unseen.
  if (FOLDERS.size === 0) throw new Error("no stored folder is known: the epoch kinds' registry (core/epochs/kind-info.ts) was not loaded");
  const parts = path.split(/[\\/]/);
  const name = parts.at(-1) ?? '';
  const anywhere = IN_ANY_FOLDER.exec(name);
  if (anywhere !== null) return anywhere[1]!.toLowerCase();
  const stored = IN_STORED_FOLDER.exec(name);
  const folder = parts.length > 1 ? parts.at(-2)! : undefined;
  if (stored === null || folder === undefined) return undefined;
  return FOLDERS.get(folder)?.has(stored[2]!) === true ? stored[1] : undefined;
}

/** A shell word that may be a path: everything up to a space, a separator or a quote. */
const WORD = /[^\s;&|()'"]+/g;

/**
 * Whether a shell command prints a stored text: `cat`, `head` or `sed -n` (each what Codex uses to
 * read a file) given one, wherever in the line.
 */
export function printsStoredFile(command: string): boolean {
  for (const printing of command.matchAll(PRINTING)) {
    for (const word of (printing[1] ?? '').matchAll(WORD)) if (storedShaOfPath(word[0]) !== undefined) return true;
  }
  return false;
}

/** `cat`, `head` or `sed -n` at the start of a command, then its words up to the next separator. */
const PRINTING = /(?:^|[\s;&|('"])(?:cat|head|sed\s+-n)\s([^;&|]*)/g;
