/**
 * The closed hold reasons of the working set (core/epochs/working-set.ts; the whole list is
 * core/decide/hold-reasons.ts, docs/reasons.md). In the base, since the take of every kind names them.
 */
export const WORKING_SET_HOLDS = {
  working_set_thrash:
    'A thrash: the epoch would take out what the model brought back since the last epoch (its working set). Planned around it, what is left is not worth a cache re-write, so nothing latched.',
  working_set_exceeds_window:
    "Near the window, the working set (what the model brought back since the person's latest prompt, and what it brought back twice) does not fit with what must stay; an epoch around it would leave the request over the window.",
} as const;

/** Why the working set held an epoch. */
export type WorkingSetHold = keyof typeof WORKING_SET_HOLDS;
