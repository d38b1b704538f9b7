/** One POST with raw bytes in and raw bytes out: no decoding, no retries. */
import http from 'node:http';

/** A response exactly as it arrived (de-chunked, never decompressed). */
export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

/** POSTs `body` to `path` under `baseUrl` and collects the response bytes. */
export function postRaw(baseUrl: string, path: string, body: Buffer, headers: Readonly<Record<string, string>> = {}, agent?: http.Agent): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, baseUrl);
    const options: http.RequestOptions = { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers } };
    if (agent !== undefined) options.agent = agent;
    const req = http.request(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
