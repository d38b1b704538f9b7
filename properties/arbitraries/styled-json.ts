/**
 * A JSON writer that makes the choices a real (or hostile) client may make and `JSON.stringify`
 * never does: whitespace of every legal kind between tokens, any key order, and any legal spelling
 * of each string (`\u00e9` or raw UTF-8, `\/` or `/`, `\n` or `\u000A`, surrogate-pair escapes,
 * upper- or lowercase hex). Values are first "styled" into a tree that fixes those choices, then
 * the tree is written out. Keeping the tree lets the client-growth model edit one message (drop a
 * `cache_control`, turn a lone text block into a string) and re-write the body with every other
 * byte as it was.
 */
import fc from 'fast-check';
import { pick, seededRng, shuffled, type Rng } from './prng.js';

/** A JSON value as `JSON.parse` returns it. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** How a body is written. Every choice is drawn from `seed`, so a profile fixes the bytes. */
export interface FormatProfile {
  readonly seed: number;
  /** `none`: compact like the real client; `loose`: spaces and newlines; `chaotic`: any of ` \t\r\n`, runs of them. */
  readonly whitespace: 'none' | 'loose' | 'chaotic';
  /** `canonical`: `JSON.stringify`; `mixed`: some strings escape some characters needlessly; `heavy`: most do. */
  readonly escapes: 'canonical' | 'mixed' | 'heavy';
  /** `given`: keys in the order the model lists them (the client's order); `shuffled`: random per object. */
  readonly keyOrder: 'given' | 'shuffled';
  /** `varied`: integers also as `5.0`, `5e0`, `5E+0`. */
  readonly numbers: 'canonical' | 'varied';
}

export const formatProfileArb: fc.Arbitrary<FormatProfile> = fc.record({
  seed: fc.integer(),
  whitespace: fc.constantFrom('none', 'loose', 'chaotic'),
  escapes: fc.constantFrom('canonical', 'mixed', 'heavy'),
  keyOrder: fc.constantFrom('given', 'shuffled'),
  numbers: fc.constantFrom('canonical', 'varied'),
});

/** The profile of `JSON.stringify` output (and of the real client's bodies). */
export const CANONICAL_PROFILE: FormatProfile = {
  seed: 0,
  whitespace: 'none',
  escapes: 'canonical',
  keyOrder: 'given',
  numbers: 'canonical',
};

/** A token whose text is fixed: a string, number or literal. */
export interface StyledAtom {
  readonly kind: 'atom';
  readonly text: string;
}
/** An array element with the whitespace around it. */
export interface StyledItem {
  readonly pre: string;
  readonly node: StyledNode;
  readonly post: string;
}
export interface StyledArray {
  readonly kind: 'array';
  readonly items: readonly StyledItem[];
  /** Whitespace between `[` and `]` when there are no items. */
  readonly empty: string;
}
/** An object member: `pre key mid1 : mid2 value post`. */
export interface StyledMember {
  /** The decoded key. */
  readonly name: string;
  readonly pre: string;
  /** The key token as written. */
  readonly key: string;
  readonly mid1: string;
  readonly mid2: string;
  readonly node: StyledNode;
  readonly post: string;
}
export interface StyledObject {
  readonly kind: 'object';
  readonly members: readonly StyledMember[];
  readonly empty: string;
}
export type StyledNode = StyledAtom | StyledArray | StyledObject;

/** Whether a JSON value is an array (Array.isArray does not narrow readonly arrays). */
export function isJsonArray(value: JsonValue | undefined): value is readonly JsonValue[] {
  return Array.isArray(value);
}

/** Whether a JSON value is an object (not an array, not null). */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Turns values into styled trees, drawing every choice from the profile's seed. */
export class Styler {
  private readonly rng: Rng;

  constructor(readonly profile: FormatProfile) {
    this.rng = seededRng(profile.seed);
  }

  /** Whitespace for one gap between tokens. */
  ws(): string {
    switch (this.profile.whitespace) {
      case 'none':
        return '';
      case 'loose':
        return pick(this.rng, ['', ' ', '\n', '\n  ', '\n\t\t']);
      case 'chaotic': {
        let out = '';
        const n = Math.floor(this.rng() * 4);
        for (let i = 0; i < n; i++) out += pick(this.rng, [' ', '\t', '\n', '\r\n', '\r', '   ']);
        return out;
      }
    }
  }

  /** A string token: canonical, or with needless escapes at a per-string rate. */
  string(value: string): StyledAtom {
    const mode = this.profile.escapes;
    let rate = 0;
    if (mode === 'heavy') rate = 0.05 + this.rng() * 0.35;
    else if (mode === 'mixed' && this.rng() < 0.5) rate = this.rng() * 0.2;
    return { kind: 'atom', text: rate === 0 ? JSON.stringify(value) : encodeStringToken(value, this.rng, rate) };
  }

  number(value: number): StyledAtom {
    const canonical = JSON.stringify(value);
    if (this.profile.numbers === 'canonical' || !/^-?\d+$/.test(canonical) || this.rng() < 0.4) return { kind: 'atom', text: canonical };
    return { kind: 'atom', text: canonical + pick(this.rng, ['.0', 'e0', 'E+0', '.000e-0', 'E00']) };
  }

  value(value: JsonValue): StyledNode {
    if (value === null) return { kind: 'atom', text: 'null' };
    if (typeof value === 'boolean') return { kind: 'atom', text: value ? 'true' : 'false' };
    if (typeof value === 'number') return this.number(value);
    if (typeof value === 'string') return this.string(value);
    if (isJsonArray(value)) return this.array(value.map((v) => this.value(v)));
    return this.object(Object.entries(value).map(([k, v]) => [k, this.value(v)] as const));
  }

  array(nodes: readonly StyledNode[]): StyledArray {
    return { kind: 'array', items: nodes.map((node) => this.item(node)), empty: this.ws() };
  }

  item(node: StyledNode): StyledItem {
    return { pre: this.ws(), node, post: this.ws() };
  }

  object(entries: ReadonlyArray<readonly [string, StyledNode]>): StyledObject {
    const ordered = this.profile.keyOrder === 'shuffled' && this.rng() < 0.6 ? shuffled(this.rng, entries) : entries;
    const members = ordered.map(([name, node]) => ({
      name,
      pre: this.ws(),
      key: this.string(name).text,
      mid1: this.ws(),
      mid2: this.ws(),
      node,
      post: this.ws(),
    }));
    return { kind: 'object', members, empty: this.ws() };
  }
}

/**
 * A JSON string token for `value` in which about `rate` of the characters take a non-canonical
 * spelling (`\u0022` for a quote, `\/`, `\u000A`, `\u00e9`, a surrogate-pair escape for an
 * emoji, uppercase hex for a lone surrogate...); the runs between them are written canonically.
 * Gaps between such characters are drawn geometrically, so a long text costs a few draws.
 */
export function encodeStringToken(value: string, rng: Rng, rate: number): string {
  if (rate <= 0) return JSON.stringify(value);
  let out = '"';
  const logKeep = Math.log(1 - Math.min(rate, 0.999));
  let i = 0;
  while (i < value.length) {
    let j = Math.min(value.length, i + Math.floor(Math.log(1 - rng()) / logKeep));
    // Never cut a surrogate pair between a canonical run and a respelled character.
    if (j > i && j < value.length && isHigh(value.charCodeAt(j - 1)) && isLow(value.charCodeAt(j))) j--;
    if (j > i) out += JSON.stringify(value.slice(i, j)).slice(1, -1);
    i = j;
    if (i >= value.length) break;
    const cp = value.codePointAt(i)!;
    out += respell(cp, rng);
    i += cp > 0xffff ? 2 : 1;
  }
  return `${out}"`;
}

function isHigh(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** A legal spelling of one code point other than `JSON.stringify`'s (where there is one). */
function respell(cp: number, rng: Rng): string {
  if (cp === 0x2f) return '\\/';
  if (cp > 0xffff) {
    const v = cp - 0x10000;
    return unicodeEscape(0xd800 + (v >> 10), rng) + unicodeEscape(0xdc00 + (v & 0x3ff), rng);
  }
  // Quotes, backslashes, controls, lone surrogates, ASCII and the rest of the BMP alike.
  return unicodeEscape(cp, rng);
}

/** `\uXXXX` in lowercase, uppercase or mixed-case hex. */
function unicodeEscape(unit: number, rng: Rng): string {
  const hex = unit.toString(16).padStart(4, '0');
  const style = rng();
  if (style < 0.4) return `\\u${hex}`;
  if (style < 0.8) return `\\u${hex.toUpperCase()}`;
  let mixed = '';
  for (const d of hex) mixed += rng() < 0.5 ? d : d.toUpperCase();
  return `\\u${mixed}`;
}

/** The JSON text of a styled tree. */
export function writeStyled(node: StyledNode): string {
  const parts: string[] = [];
  write(node, parts);
  return parts.join('');
}

function write(node: StyledNode, parts: string[]): void {
  switch (node.kind) {
    case 'atom':
      parts.push(node.text);
      return;
    case 'array':
      parts.push('[');
      if (node.items.length === 0) parts.push(node.empty);
      for (const [i, item] of node.items.entries()) {
        if (i > 0) parts.push(',');
        parts.push(item.pre);
        write(item.node, parts);
        parts.push(item.post);
      }
      parts.push(']');
      return;
    case 'object':
      parts.push('{');
      if (node.members.length === 0) parts.push(node.empty);
      for (const [i, m] of node.members.entries()) {
        if (i > 0) parts.push(',');
        parts.push(m.pre, m.key, m.mid1, ':', m.mid2);
        write(m.node, parts);
        parts.push(m.post);
      }
      parts.push('}');
      return;
  }
}

/** The member of a styled object named `name`. */
export function styledMember(node: StyledNode, name: string): StyledMember | undefined {
  return node.kind === 'object' ? node.members.find((m) => m.name === name) : undefined;
}

/** A copy of a styled object with one member's value replaced. */
export function withMemberNode(node: StyledObject, name: string, value: StyledNode): StyledObject {
  return { ...node, members: node.members.map((m) => (m.name === name ? { ...m, node: value } : m)) };
}

/** A copy of a styled object without the member named `name` (its separator goes with it). */
export function withoutMember(node: StyledObject, name: string): StyledObject {
  return { ...node, members: node.members.filter((m) => m.name !== name) };
}
