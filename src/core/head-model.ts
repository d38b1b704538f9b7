/**
 * The body's top-level `model`, read from the head of the body only: the window a request is
 * measured against depends on it (context-window.ts), and most requests go through without their
 * body being indexed (first-message.ts). Claude Code and the SDKs put `model` before `messages`;
 * a `model` after `messages` is not looked for, so the answer never costs a scan of the transcript.
 */
import { scanValue } from './json-scan.js';
import { shortText, walkHeadMembers } from './head-members.js';

/** A model id is short; anything longer is not one we would find in the table. */
const MAX_MODEL_BYTES = 256;

/** The string value of a top-level `model` key that comes before `messages`; `undefined` otherwise. Never throws. */
export function readHeadModel(b: Uint8Array): string | undefined {
  return walkHeadMembers(b, (key, at) => {
    if (key === 'messages') return { answer: undefined };
    if (key !== 'model') return undefined;
    return { answer: b[at] === 0x22 ? shortText(b, at, scanValue(b, at, 1), MAX_MODEL_BYTES) : undefined };
  });
}
