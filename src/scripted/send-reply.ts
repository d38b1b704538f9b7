/** Writes a scripted reply to a `node:http` response, faults and all. */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import type { BodyStep, ContentEncoding, ReplyHead, StreamEnd, StreamFaults, WireReply } from './reply.js';
import { encodeSseEvent, type SseEvent } from './sse-encode.js';

/** Sends `reply` on `res`; resolves once it is written (a hanging stream: once its last piece is). */
export async function sendReply(res: ServerResponse, reply: WireReply): Promise<void> {
  if (reply.kind !== 'custom' && reply.kind !== 'reset' && reply.onClose !== undefined) {
    const { onClose } = reply;
    res.once('close', () => onClose(res.writableFinished));
  }
  switch (reply.kind) {
    case 'json': {
      const body = compress(Buffer.from(JSON.stringify(reply.body), 'utf8'), reply.encoding);
      writeHead(res, reply, { 'content-type': 'application/json', 'content-length': String(body.length), ...encodingHeader(reply.encoding) });
      res.end(body);
      return;
    }
    case 'sse':
      writeHead(res, reply, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...encodingHeader(reply.encoding) });
      await streamSteps(res, sseSteps(reply.events, reply), reply.encoding, reply.end ?? 'end');
      return;
    case 'raw':
      writeHead(res, reply, {});
      await streamSteps(res, reply.chunks, undefined, reply.end ?? 'end');
      return;
    case 'silent':
      return;
    case 'reset':
      res.socket?.resetAndDestroy();
      return;
    case 'custom':
      await reply.write(res);
      return;
  }
}

function writeHead(res: ServerResponse, head: ReplyHead, defaults: OutgoingHttpHeaders): void {
  const headers = head.headers === undefined ? defaults : Array.isArray(head.headers) ? head.headers : { ...defaults, ...head.headers };
  const status = head.status ?? 200;
  // node:http takes a flat [name, value, ...] list as raw header lines, repeats and case kept.
  if (head.statusMessage === undefined) res.writeHead(status, headers as OutgoingHttpHeaders);
  else res.writeHead(status, head.statusMessage, headers as OutgoingHttpHeaders);
}

function encodingHeader(encoding: ContentEncoding | undefined): OutgoingHttpHeaders {
  return encoding === undefined ? {} : { 'content-encoding': encoding };
}

function compress(body: Buffer, encoding: ContentEncoding | undefined): Buffer {
  switch (encoding) {
    case undefined:
      return body;
    case 'gzip':
      return zlib.gzipSync(body);
    case 'deflate':
      return zlib.deflateSync(body);
    case 'br':
      return zlib.brotliCompressSync(body);
  }
}

/** The events as body steps: cut by `errorAfter`, each after its pause. */
function sseSteps(events: readonly SseEvent[], faults: StreamFaults): BodyStep[] {
  const cut =
    faults.errorAfter === undefined
      ? events
      : [...events.slice(0, faults.errorAfter.events), { event: 'error', data: { type: 'error', error: faults.errorAfter.error } }];
  return cut.flatMap((e) => [...(faults.delayMs === undefined ? [] : [{ afterMs: faults.delayMs }]), encodeSseEvent(e.event, e.data)]);
}

/** A compressor whose every write can be flushed, so each piece leaves as it is written. */
function compressorFor(encoding: ContentEncoding): { stream: zlib.Gzip | zlib.Deflate | zlib.BrotliCompress; flush: () => void } {
  if (encoding === 'br') {
    const br = zlib.createBrotliCompress();
    return { stream: br, flush: () => br.flush(zlib.constants.BROTLI_OPERATION_FLUSH) };
  }
  const z = encoding === 'gzip' ? zlib.createGzip() : zlib.createDeflate();
  // Without a sync flush the compressor would hold every event until the end, and the stream
  // would arrive in one piece.
  return { stream: z, flush: () => z.flush(zlib.constants.Z_SYNC_FLUSH) };
}

async function streamSteps(res: ServerResponse, steps: Iterable<BodyStep>, encoding: ContentEncoding | undefined, end: StreamEnd): Promise<void> {
  const compressor = encoding === undefined ? undefined : compressorFor(encoding);
  if (compressor !== undefined) compressor.stream.pipe(res);
  const sink: Writable = compressor?.stream ?? res;
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  let open = !res.destroyed;
  void closed.then(() => (open = false));
  const write = async (chunk: string | Buffer): Promise<void> => {
    const ok = sink.write(chunk);
    compressor?.flush();
    // Backpressure: a reader that stops reading stops the writer too.
    if (!ok) await Promise.race([new Promise((resolve) => sink.once('drain', resolve)), closed]);
  };
  for (const step of steps) {
    if (!open) return;
    if (typeof step === 'string' || Buffer.isBuffer(step)) await write(step);
    else if ('afterMs' in step) await Promise.race([sleep(step.afterMs), closed]);
    else await Promise.race([step.until, closed]);
  }
  if (!open) return;
  if (end === 'end') sink.end();
  else if (end === 'destroy') res.destroy();
  else if (end === 'reset') res.socket?.resetAndDestroy();
  else if (end !== 'hang') {
    const timer = setInterval(() => void write(end.repeat), end.everyMs);
    void closed.then(() => clearInterval(timer));
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
