/**
 * The modes: one row per `--mode` word (kind-mode.ts), each carried by its kind's engine record
 * (latch-kind.ts `LatchKind.mode`), so that a kind adds a mode with one line and a mode's threshold
 * or recent budget is chosen in its kind's folder (docs/rescue.md "Flags and environment",
 * docs/economics.md "Choosing the defaults"). A lever a command line gives overrides the row
 * (engine-settings.ts `engineSettingsOf`); `replay` reads a row for each mode it replays.
 *
 * The built-in kinds' rows are listed here from their folders rather than read from the engine's
 * registry (latch-kinds.ts): the kinds' own files import the settings (latch-conversation.ts), so
 * the settings reading the registry would be an import cycle. `registerKind` adds a registered
 * kind's row (`registerMode`), in the same call that registers the kind.
 */
import type { KindMode, ModeDefaults, ModeWord } from './kind-mode.js';
import { SHED_MODE } from './kinds/spans/mode.js';
import { DEFAULT_DEEP_CUT, RESCUE_MODE } from './kinds/tool-results/mode.js';

export { DEFAULT_DEEP_CUT };
export type { KindMode, ModeDefaults, ModeWord };

/** Every row in registration order, the built-ins first; of two rows with one word, the later registered wins. */
const ROWS: KindMode[] = [RESCUE_MODE, SHED_MODE];

/** The mode a command runs in when none is named: the default kind's (the one every API carries). */
export const DEFAULT_MODE: ModeWord = RESCUE_MODE.word;

/** A mode word's shape: lowercase letters, digits, `_` and `-`, a letter first. */
const MODE_WORD = /^[a-z][a-z0-9_-]*$/;

/**
 * Adds a kind's mode row (latch-kinds.ts `registerKind` calls it); returns its removal. A row
 * listed already (a built-in's) is left as it is. Throws for a word not of `MODE_WORD`'s shape.
 */
export function registerMode(mode: KindMode): () => void {
  if (ROWS.includes(mode)) return () => undefined;
  if (!MODE_WORD.test(mode.word)) throw new Error(`a mode word is lowercase letters, digits, _ and -, got ${JSON.stringify(mode.word)}`);
  ROWS.push(mode);
  return () => {
    const at = ROWS.indexOf(mode);
    if (at >= 0) ROWS.splice(at, 1);
  };
}

/** The words `--mode` takes, each once, in registration order (the built-ins first). */
export function modeWords(): ModeWord[] {
  return [...new Set(ROWS.map((r) => r.word))];
}

/** Every mode's row as `--mode` opens it: one per word, the latest registered of a word. */
export function modeRows(): KindMode[] {
  return modeWords().map((word) => rowOf(word)!);
}

/** The row of `word`, when one is registered. */
function rowOf(word: string): KindMode | undefined {
  for (let i = ROWS.length - 1; i >= 0; i--) if (ROWS[i]!.word === word) return ROWS[i];
  return undefined;
}

/** A word looked up: its row, or the one line that refuses it, naming every word there is. */
export type ModeLookup = { readonly kind: 'mode'; readonly mode: KindMode } | { readonly kind: 'unknown'; readonly message: string };

/** Checks a `--mode` word against the registry: the one place, with the one message, that refuses an unknown word. */
export function lookUpMode(word: string): ModeLookup {
  const mode = rowOf(word);
  if (mode !== undefined) return { kind: 'mode', mode };
  const words = modeWords();
  const list = words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
  return { kind: 'unknown', message: `--mode takes ${list}, not ${JSON.stringify(word)}` };
}

/** The row of `mode` (a row without defaults takes the default mode's); throws for a word no kind registered (the edge checked it: `lookUpMode`). */
export function modeDefaultsOf(mode: ModeWord): ModeDefaults {
  const found = lookUpMode(mode);
  if (found.kind === 'unknown') throw new Error(found.message);
  return found.mode.defaults ?? RESCUE_MODE.defaults!;
}

/**
 * A lever's default as help text: the value when every mode has the same, else each mode's
 * (`rescue 40, shed 50`), so `--help` follows the rows.
 */
export function defaultByMode(text: (row: ModeDefaults) => string): string {
  const byMode = modeWords().map((mode) => [mode, text(modeDefaultsOf(mode))] as const);
  const values = new Set(byMode.map(([, value]) => value));
  return values.size === 1 ? byMode[0]![1] : byMode.map(([mode, value]) => `${mode} ${value}`).join(', ');
}
