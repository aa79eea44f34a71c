// DebugService.ContainerRun: the first message names an image and a command, later ones carry stdin,
// signals and terminal sizes. The container runs from a local image with upstream's privileged profile;
// its stdout and stderr stream back as stdout_data, a client's half-close closes its stdin, and its exit
// code ends the stream. A client that goes away takes the container with it (the call's signal).
import { apiErrorOf } from '../containers/connect.js';
import { ApiError } from '../errors.js';
import { type ApiMessage, bidiStreamHandler } from '../handlers.js';
import type { DebugContainer, DebugDeps } from './deps.js';
import { notPresent } from './image-pull.js';
import { findImage } from './image-ref.js';
import { namespaceOf } from './instance.js';
import { crlf, LineMode, NO_TERMINAL_NOTICE } from './terminal.js';

export const containerRunHandler = (deps: DebugDeps) =>
  bidiStreamHandler(async (reqs, send, ctx) => {
    const requests = reqs[Symbol.asyncIterator]();
    const first = await requests.next();
    const spec = first.done ? undefined : (first.value.spec as ApiMessage | undefined);
    if (!spec) throw new ApiError('invalid-argument', 'expected debug container spec');
    const profile = String(spec.profile ?? 'PROFILE_UNSPECIFIED');
    if (profile !== 'PROFILE_PRIVILEGED')
      throw new ApiError('invalid-argument', `unsupported debug container profile: ${profile}`);
    const namespace = namespaceOf(spec.containerd);
    const ref = String(spec.image_name ?? '');
    const image = findImage(
      ref,
      await deps.images(namespace, { signal: ctx.signal }).catch((e) => Promise.reject(apiErrorOf(e))),
    );
    if (!image) throw notPresent(ref, namespace);
    const container = await deps.run(
      {
        namespace,
        image: image.name,
        args: (spec.args as string[] | undefined) ?? [],
        env: (spec.env as Record<string, string> | undefined) ?? {},
      },
      { signal: ctx.signal },
    );
    const tty = spec.tty === true;
    // output and echo share the stream: one send at a time, in order
    let sending = Promise.resolve();
    const emit = (b: Buffer) => {
      sending = sending.then(() => send({ stdout_data: b }));
      return sending;
    };
    if (tty) void emit(Buffer.from(NO_TERMINAL_NOTICE));
    // a client that leaves ends the input with an error; the call's signal removes the container then
    void forwardInput(
      { [Symbol.asyncIterator]: () => requests },
      container,
      tty ? new LineMode() : undefined,
      emit,
    ).catch(() => {});
    let lastCR = false;
    for await (const chunk of container.output) {
      void emit(tty ? crlf(chunk, lastCR) : chunk);
      lastCR = chunk[chunk.length - 1] === 0x0d;
      await sending;
    }
    const code = await container.exited;
    await sending;
    await send({ exit_code: code });
  });

/** forwardInput carries stdin and signals to the container; the end of the requests closes its stdin. */
async function forwardInput(
  requests: AsyncIterable<ApiMessage>,
  c: DebugContainer,
  line: LineMode | undefined,
  echo: (b: Buffer) => Promise<void>,
): Promise<void> {
  for await (const msg of requests) {
    if (msg.request === 'stdin_data' && msg.stdin_data) {
      const data = Buffer.from(msg.stdin_data as Uint8Array);
      if (!line) {
        await c.write(data);
        continue;
      }
      const keys = line.input(data);
      if (keys.echo.length > 0) void echo(keys.echo);
      for (const s of keys.signals) await c.signal(s).catch(() => {});
      if (keys.toContainer.length > 0) await c.write(keys.toContainer);
      if (keys.eof) c.closeStdin();
    } else if (msg.request === 'signal' && typeof msg.signal === 'number') {
      await c.signal(msg.signal).catch(() => {});
    }
    // term_resize: there is no terminal to resize
  }
  c.closeStdin();
}
