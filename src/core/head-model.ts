/**
 * The body's top-level `model`, read as the API reads keys: when `model` appears more than once,
 * the last one wins (issue 26, item 6: a `model` after `messages` is the one the API runs, so it is
 * the one the window and the thinking check must follow). Claude Code and the SDKs put `model`
 * before `messages`, but the walk goes on to the body's end to see whether another follows: the
 * members are skipped structurally (no decoding), so the cost is one scan of the body's bytes.
 */
import { scanValue } from './json-scan.js';
import { shortText, walkHeadMembers } from './head-members.js';

/** A model id is short; anything longer is not one we would find in the table. */
const MAX_MODEL_BYTES = 256;

/**
 * The value of the body's last top-level `model` key when it is a short string; `undefined`
 * otherwise (no `model`, the last one not a string, or the body not a JSON object). Never throws.
 */
export function readBodyModel(b: Uint8Array): string | undefined {
  let model: string | undefined;
  let complete = false;
  walkHeadMembers(
    b,
    (key, at) => {
      if (key === 'model') model = b[at] === 0x22 ? shortText(b, at, scanValue(b, at, 1), MAX_MODEL_BYTES) : undefined;
      return undefined;
    },
    () => {
      complete = true;
    },
  );
  return complete ? model : undefined;
}

/** The request's model: the one read already (`model`), else the body's (`readBodyModel`). */
export function modelOfRequest(request: { readonly body: Uint8Array; readonly model?: { readonly value: string | undefined } }): string | undefined {
  return request.model === undefined ? readBodyModel(request.body) : request.model.value;
}
