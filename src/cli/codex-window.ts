/**
 * The window a Codex session is measured against, said once at launch: the model Codex was told
 * to run (`-m`, `--model`, `-c model=...`) and its window from the table
 * (core/openai/model-windows.ts), or that ctxshed does not know it. Pure.
 */
import { DEFAULT_CONTEXT_WINDOW, openAiModelWindow } from '../core/index.js';

/** The model named among Codex's arguments, the last one winning as in Codex; else undefined. */
export function codexModelArg(args: readonly string[]): string | undefined {
  let model: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if ((arg === '-m' || arg === '--model') && next !== undefined) model = next;
    else if (arg.startsWith('--model=')) model = arg.slice('--model='.length);
    else if ((arg === '-c' || arg === '--config') && next !== undefined) model = modelSetting(next) ?? model;
    else if (arg.startsWith('--config=')) model = modelSetting(arg.slice('--config='.length)) ?? model;
  }
  return model === '' ? undefined : model;
}

/** `model=<value>` (a TOML string, or a bare word as Codex takes it), else undefined. */
function modelSetting(setting: string): string | undefined {
  const m = /^\s*model\s*=\s*(.*)$/.exec(setting);
  if (m === null) return undefined;
  const raw = m[1]!.trim();
  return /^(["']).*\1$/.test(raw) ? raw.slice(1, -1) : raw;
}

/** The launch line about the window; `window` is `--window`, which wins. */
export function codexWindowLine(model: string | undefined, window: number | undefined): string {
  const fmt = (n: number): string => n.toLocaleString('en-US');
  if (window !== undefined) return `ctxshed: codex measured against --window ${fmt(window)} tokens, whatever its model`;
  const unknownFallback = `${fmt(DEFAULT_CONTEXT_WINDOW)} tokens, an assumption: pass --window with its window`;
  if (model === undefined) {
    return `ctxshed: codex's model is read from each request and its window from Codex's model list (docs/openai.md, "The window"); a model not in that list is unknown to ctxshed and measured against ${unknownFallback}`;
  }
  const known = openAiModelWindow(model);
  if (known === undefined) return `ctxshed: codex model ${JSON.stringify(model)} is unknown to ctxshed: its fullness is measured against ${unknownFallback}`;
  const earlier = openAiModelWindow(model, [0, 169, 0]);
  const before = earlier === known ? '' : `; ${fmt(earlier ?? known)} from a Codex before 0.171.0, whose list differs`;
  return `ctxshed: codex model ${model}: fullness against its ${fmt(known)}-token window (Codex 0.171.0's model list${before})`;
}
