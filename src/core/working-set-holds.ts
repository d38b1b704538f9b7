/**
 * The closed hold reasons of the working set (core/epochs/working-set.ts; the whole list is
 * core/decide/hold-reasons.ts, docs/reasons.md). In the base, since the take of every kind names them.
 */
export const WORKING_SET_HOLDS = {
  working_set_thrash:
    'A thrash: the epoch would take out what the model brought back (its working set), or mostly that. Planned around it, the new weight left is not worth a cache re-write, so nothing latched.',
  working_set_exceeds_window:
    "Near the window, what the model brought back since the person's latest prompt, which no epoch takes, does not fit with what must stay: no epoch around it brings the request under the window, so nothing latched and the request went on as it was.",
} as const;

/** Why the working set held an epoch. */
export type WorkingSetHold = keyof typeof WORKING_SET_HOLDS;
