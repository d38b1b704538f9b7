/** A text is carried once (docs/shed.md): the repeats of a request, their pointers, and inflate's side. */
export * from './brought-back-copy.js';
export * from './find-repeats.js';
export * from './inflate-repeats.js';
export * from './plan-repeats.js';
export * from './repeat-pointer.js';
