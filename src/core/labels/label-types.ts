/**
 * The words of labelling (docs/design.md "Label"): what each eligible block becomes at latch, why,
 * and how it can be fetched again. Plain data, frozen in the epoch record.
 */

/** keep: stays in context verbatim; pointer: a stub that says how to fetch it; drop: the shortest stub. */
export type Label = 'keep' | 'pointer' | 'drop';

/** The labels a frozen (stubbed) block can carry: a `keep` block is never frozen. */
export type StubLabel = Exclude<Label, 'keep'>;

/**
 * Why a block got its label. The local rules (docs/labels.md), in the order they are tried:
 * secret, superseded, duplicate, retried, then `default` (eligible, no rule: pointer). `model`:
 * the optional classifier decided, on its own score.
 */
export type LabelRule = 'secret' | 'superseded' | 'duplicate' | 'retried' | 'default' | 'model';

/** Every rule name, for checks of recorded data. */
export const LABEL_RULES: readonly LabelRule[] = ['secret', 'superseded', 'duplicate', 'retried', 'default', 'model'];

/**
 * How a stubbed block can be fetched again: `same-call` repeats the tool call (tools that only
 * read), `elided-file` reads `<state>/elided/<sha256>.txt`, `restore` asks ctxshed's MCP `restore`
 * tool for the sha256. Every stub names the elided file too, whatever this says.
 */
export type Refetch = 'same-call' | 'elided-file' | 'restore';

/** Every refetch route, for checks of recorded data. */
export const REFETCH_ROUTES: readonly Refetch[] = ['same-call', 'elided-file', 'restore'];

/** A ledger score: the classifier's score for the chosen label, or `local` when a rule decided. */
export type LabelScore = number | 'local';

/** The label of one block considered at latch, with everything its stub and ledger row need. */
export interface BlockLabel {
  readonly ordinal: number;
  readonly toolUseId: string;
  /** The tool_use's `name`, or `unknown` when no tool_use with a plain name matches the id. */
  readonly tool: string;
  /** The tool call's main input, redacted, at most MAIN_INPUT_MAX_CHARS; empty when it has none. */
  readonly input: string;
  readonly label: Label;
  readonly rule: LabelRule;
  readonly score: LabelScore;
  readonly refetch: Refetch;
}

/** One ledger row: a block an epoch considered, and what became of it. */
export interface LedgerRow {
  readonly ordinal: number;
  /** The block's `tool_use_id`. */
  readonly id: string;
  readonly tool: string;
  /** The first 12 hex digits of the sha256 of the block's text. */
  readonly sha: string;
  readonly score: LabelScore;
  readonly verdict: Label;
  readonly rule: LabelRule;
  readonly refetch: Refetch;
}

/** The policy version whose epochs carry labels and a ledger, and whose stubs say what they point at. */
export const LABELS_POLICY_VERSION = 3;

/** The longest main input a stub or ledger names, in characters (code points). */
export const MAIN_INPUT_MAX_CHARS = 160;

/** The tool name recorded when a tool_result's tool_use cannot be found or has an odd name. */
export const UNKNOWN_TOOL = 'unknown';
