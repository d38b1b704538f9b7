/**
 * The closed list of ways an original can fail to be what its name says, found before a stub names
 * it (rescue/original-check.ts): no stub then names it, the request sends that item in full (it
 * fails open for that item, docs/design.md invariant 7), and the wire log gets a note naming the
 * original and the problem. docs/reasons.md ("Originals that are not what their name says") lists
 * them; a test keeps the two in step.
 */
export const ORIGINAL_PROBLEMS = {
  original_size:
    "The original's size is not the size its epoch recorded: bytes were added to it or cut from it since it was written. No stub names it; the request sends that item in full.",
  original_hash:
    "The original's size is right, but its bytes do not hash to its name: it was changed in place. No stub names it; the request sends that item in full.",
} as const;

/** Why an original is not what its name says. */
export type OriginalProblem = keyof typeof ORIGINAL_PROBLEMS;
