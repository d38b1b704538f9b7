/**
 * The top-level scan of a request body (transcript-index.ts): its members, `model` and
 * `messages`, from the start or resumed at a message boundary of an earlier index. A second
 * `model` or `messages` key is refused (`duplicate_key`): the API takes the last, and ctxshed reads
 * the window from the first (head-model.ts), so it would measure against the wrong model.
 */
import {
  continueArray,
  continueObject,
  JsonSyntaxError,
  scanArray,
  scanDocument,
  scanObject,
  scanString,
  scanValue,
  skipWhitespace,
  type ElementVisitor,
  type MemberVisitor,
} from '../json-scan.js';
import { indexMessage } from './index-message.js';
import { ShapeError } from './index-shape-error.js';
import { decodeShortString, readKey } from './index-strings.js';
import { resumeOffset, toolResultsBefore } from './index-boundaries.js';
import type { MessageInfo, ResumableIndex, Span, ToolResultInfo } from '../transcript-index-types.js';

// How deep the full scan is when it reaches the messages: the body object is 1, `messages` 2.
const BODY_DEPTH = 1;
const MESSAGES_DEPTH = 2;

/** Where a scan resumes: after the first `messageCount` messages of `from`. */
export interface IndexResume {
  readonly from: ResumableIndex;
  readonly messageCount: number;
}

/** Indexes `b` in full, or from `resume`; throws `ShapeError`, `JsonSyntaxError` or `RangeError`. */
export function buildIndex(b: Uint8Array, resume: IndexResume | undefined): ResumableIndex {
  let messagesSpan: Span | undefined;
  let model: string | undefined;
  let modelBeforeMessages: string | undefined;
  // A second `model` is refused as a second `messages` is: the API reads the last, a head read the first.
  let modelKeySeen = false;
  let modelKeyBeforeMessages = false;
  let messages: MessageInfo[] = [];
  let toolResults: ToolResultInfo[] = [];
  const visitMessage: ElementVisitor = (start, index, d) => indexMessage(b, start, index, d, messages, toolResults);
  // One visitor for the body's members, used by the full scan and by a resumed one alike.
  const visitMember: MemberVisitor = (keyStart, keyEnd, valueStart, depth) => {
    const key = readKey(b, keyStart, keyEnd);
    if (key === 'model') {
      if (modelKeySeen) throw new ShapeError('duplicate_key', 'two "model" keys');
      modelKeySeen = true;
    }
    if (key === 'model' && b[valueStart] === 0x22) {
      const end = scanString(b, valueStart);
      model = decodeShortString(b, valueStart, end);
      return end;
    }
    if (key !== 'messages') return scanValue(b, valueStart, depth);
    if (messagesSpan !== undefined) throw new ShapeError('duplicate_key', 'two "messages" keys');
    if (b[valueStart] !== 0x5b) throw new ShapeError('not_messages_body', '"messages" is not an array');
    modelBeforeMessages = model;
    modelKeyBeforeMessages = modelKeySeen;
    const end = scanArray(b, valueStart, depth + 1, visitMessage);
    messagesSpan = { start: valueStart, end };
    return end;
  };
  let end: number;
  if (resume === undefined) {
    const start = skipWhitespace(b, 0);
    if (b[start] !== 0x7b) {
      scanDocument(b); // not JSON at all, or JSON of another kind: the reason says which
      throw new ShapeError('not_messages_body', 'body is not a JSON object');
    }
    end = scanObject(b, start, BODY_DEPTH, visitMember);
  } else {
    // The state the full scan is in at this boundary: inside `messages`, with the messages before
    // it indexed and the model seen so far. Everything after it is scanned as the full scan would.
    const { from, messageCount } = resume;
    const was = from.index;
    messages = was.messages.slice(0, messageCount);
    toolResults = was.toolResults.slice(0, toolResultsBefore(was, messageCount));
    model = modelBeforeMessages = from.modelBeforeMessages;
    modelKeySeen = modelKeyBeforeMessages = from.modelKeyBeforeMessages;
    const offset = resumeOffset(was, messageCount);
    const arrayEnd =
      messageCount === 0 ? scanArray(b, offset, MESSAGES_DEPTH, visitMessage) : continueArray(b, offset, MESSAGES_DEPTH, messageCount, visitMessage);
    messagesSpan = { start: was.messagesSpan.start, end: arrayEnd };
    end = continueObject(b, arrayEnd, BODY_DEPTH, visitMember);
  }
  if (skipWhitespace(b, end) !== b.length) throw new JsonSyntaxError(end, 'trailing bytes');
  if (messagesSpan === undefined) throw new ShapeError('not_messages_body', 'no "messages" key');
  return { index: { byteLength: b.length, messagesSpan, messages, toolResults, model }, modelBeforeMessages, modelKeyBeforeMessages };
}
