import http from "node:http";

// A large request body sent the way an abusive client sends it: generated chunk by chunk as the
// socket takes it (never held in memory), with Content-Length or chunked, stopping as soon as the
// server answers. Node's http client reports the answer while the body is still being written.

export interface StreamedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** From the first byte sent to the answer's headers. */
  ms: number;
  /** Body bytes handed to the socket before the answer came. */
  sent: number;
}

const CHUNK_BYTES = 64 * 1024;

export function postStreamed(
  baseUrl: string,
  path: string,
  options: { bytes: number; chunked: boolean; contentType: string; prefix?: string; headers?: Record<string, string>; timeoutMs?: number },
): Promise<StreamedAnswer> {
  const headers: Record<string, string> = { "content-type": options.contentType, ...options.headers };
  if (!options.chunked) headers["content-length"] = String(options.bytes);
  const filler = Buffer.alloc(CHUNK_BYTES, "a");
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(new URL(path, baseUrl), { method: "POST", headers, agent: false });
    let sent = 0;
    let answered = false;
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer from ${path} within ${options.timeoutMs ?? 15_000} ms (${sent} bytes sent)`));
    }, options.timeoutMs ?? 15_000);
    const pump = () => {
      while (!answered && sent < options.bytes) {
        const first = sent === 0 && options.prefix ? Buffer.from(options.prefix) : null;
        const piece = (first ?? filler).subarray(0, Math.min(CHUNK_BYTES, options.bytes - sent));
        sent += piece.byteLength;
        if (!request.write(piece)) return void request.once("drain", pump);
      }
      if (!answered) request.end();
    };
    request.on("response", (response) => {
      answered = true;
      const ms = performance.now() - started;
      const chunks: Buffer[] = [];
      const done = () => {
        clearTimeout(timer);
        request.destroy();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8"), ms, sent });
      };
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", done);
      // The server closes the connection after its answer: what arrived is the answer.
      response.on("error", done);
      response.on("aborted", done);
    });
    request.on("error", (error) => {
      if (answered) return;
      clearTimeout(timer);
      reject(new Error(`${path}: ${String(error)} before any answer (${sent} bytes sent)`));
    });
    pump();
  });
}
