// Messages a handler writes while the transport is busy leave together. grpc-js's server stream hands
// HTTP/2 one message and waits until it is taken before the next: a turn of the event loop, and a TLS
// record, per message, so a watch's bootstrap of a hundred resources took a hundred turns. With a writev,
// the stream passes every message buffered meanwhile to HTTP/2 at once, in order, and goes on when all
// are taken; a failure of any is the batch's.
import type { Writable } from 'node:stream';

type WriteCallback = (err?: Error | null) => void;

interface BatchableStream {
  _write(chunk: unknown, encoding: BufferEncoding, callback: WriteCallback): void;
  _writev?: (chunks: { chunk: unknown; encoding: BufferEncoding }[], callback: WriteCallback) => void;
}

/** batchWrites gives a grpc-js server stream a writev built on its own single-message write. */
export function batchWrites(stream: Writable): void {
  const s = stream as unknown as BatchableStream;
  if (s._writev) return;
  s._writev = (chunks, callback) => {
    let pending = chunks.length;
    let failed = false;
    for (const { chunk, encoding } of chunks)
      s._write(chunk, encoding, (err) => {
        if (failed) return;
        if (err) {
          failed = true;
          callback(err);
        } else if (--pending === 0) callback();
      });
  };
}
