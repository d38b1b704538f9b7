/** What a tool call was about, in a few words: the field a person would name it by. */
import { MAIN_INPUT_MAX_CHARS } from './label-types.js';
import type { ToolCall } from '../read-tool-calls.js';

/** The tools whose main input is a file path, and the field that holds it. */
const PATH_FIELDS: Readonly<Record<string, string>> = {
  Read: 'file_path',
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookRead: 'notebook_path',
  NotebookEdit: 'notebook_path',
};

/** The tools whose main input is one field (besides the file tools). */
const MAIN_FIELDS: Readonly<Record<string, string>> = {
  Bash: 'command',
  WebFetch: 'url',
  WebSearch: 'query',
  // Codex's shell tool: `{"cmd": "cat notes.md", "workdir": ...}` (read-openai-calls.ts joins an
  // array `cmd` into one shell line).
  exec_command: 'cmd',
};

/** Tools whose main input is code (Codex's code mode `exec`, a custom tool call): named by its first line. */
const CODE_TOOLS = new Set(['exec']);

/** The tools named by a pattern and, when given, where they looked. */
const PATTERN_TOOLS = new Set(['Grep', 'Glob']);

/**
 * The call's main input, whole (a stub shortens it): the file path of Read, Write and Edit, the
 * command of Bash and of Codex's `exec_command` (its `cmd`), the first line of the code of Codex's
 * `exec`, the pattern (and path) of Grep and Glob, the url of WebFetch; for other tools
 * the first string field of at most MAIN_INPUT_MAX_CHARS characters, else the first string field.
 * `undefined` when the input has no string field.
 */
export function mainInputOf(call: ToolCall): string | undefined {
  const field = (key: string): string | undefined => call.strings.find(([k]) => k === key)?.[1];
  const pathField = PATH_FIELDS[call.name];
  if (pathField !== undefined) return field(pathField);
  const mainField = MAIN_FIELDS[call.name];
  if (mainField !== undefined) return field(mainField);
  if (CODE_TOOLS.has(call.name)) return firstLine(field('input'));
  if (PATTERN_TOOLS.has(call.name)) {
    const pattern = field('pattern');
    const path = field('path');
    if (pattern === undefined) return undefined;
    return path === undefined ? pattern : `${pattern} in ${path}`;
  }
  const short = call.strings.find(([, value]) => countChars(value) <= MAIN_INPUT_MAX_CHARS);
  return (short ?? call.strings[0])?.[1];
}

// The first line that says something: code often opens with a blank line.
function firstLine(code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  return code.split('\n').find((line) => line.trim() !== '') ?? code;
}

/** The file a file tool (Read, Write, Edit, MultiEdit, NotebookRead, NotebookEdit) works on. */
export function filePathOf(call: ToolCall): string | undefined {
  const pathField = PATH_FIELDS[call.name];
  return pathField === undefined ? undefined : call.strings.find(([k]) => k === pathField)?.[1];
}

/**
 * The text cut to at most `max` characters (code points, so no surrogate pair is split), with
 * an ellipsis as its last character when it was cut.
 */
export function truncateChars(text: string, max: number = MAIN_INPUT_MAX_CHARS): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(max - 1, 0)).join('')}…`;
}

function countChars(text: string): number {
  return text.length <= MAIN_INPUT_MAX_CHARS ? text.length : Array.from(text).length;
}
