/**
 * What `restore` accepts as a handle: a sha256, or a prefix of it long enough to mean one thing.
 * Every command that takes a handle or a key (`show`, `seal`, `unseal`) reads it here, so they
 * all take the same digits and say the same thing about what they refuse.
 */
import { MIN_RESTORE_PREFIX_HEX } from '../core/index.js';

/**
 * The fewest hex digits a handle may have: 48 bits, so a prefix names one block in any real state
 * directory, and the count of a read-back (detect-refaults.ts) takes exactly what restore takes.
 */
export const MIN_HANDLE_HEX_DIGITS = MIN_RESTORE_PREFIX_HEX;

/** A handle read from input: lowercase hex, 12 to 64 digits, or why it is not one. */
export type ParsedHandle = { readonly kind: 'handle'; readonly prefix: string } | { readonly kind: 'invalid'; readonly why: string };

/** Reads a handle as a person or a model typed it: surrounding spaces and upper case are forgiven. */
export function parseHandle(input: string): ParsedHandle {
  const prefix = input.trim().toLowerCase();
  if (!/^[0-9a-f]*$/.test(prefix)) return { kind: 'invalid', why: 'a handle is hex digits only (a sha256, or its first 12 or more digits)' };
  if (prefix.length < MIN_HANDLE_HEX_DIGITS)
    return { kind: 'invalid', why: `a handle needs at least ${MIN_HANDLE_HEX_DIGITS} hex digits, not ${prefix.length}` };
  if (prefix.length > 64) return { kind: 'invalid', why: `a sha256 has 64 hex digits, not ${prefix.length}` };
  return { kind: 'handle', prefix };
}
