// Reading a body from outside (a feed, a provider's answer, a webhook, an
// inbound mail, an upload) with a cap on its size: the stream is read chunk by
// chunk and cancelled as soon as it passes the cap, so a huge or endless body
// costs at most `limit` bytes and never more reading than that. A declared
// Content-Length is not trusted either way.

/**
 * The stream's bytes, or null when it holds more than `limit`. With a signal,
 * an abort (a deadline) cancels the reading; the caller tells a late stream
 * from a finished one by `signal.aborted`.
 */
export async function readCappedBytes(stream: ReadableStream<Uint8Array> | null, limit: number, signal?: AbortSignal): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', stop, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        stop();
        return null;
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
