import net from 'node:net';

// A relay between the client and the sandbox that notes, per direction, every chunk it passes
// on with the time: the bytes on the wire, measured outside the client, for the rate tests of
// the transfer limits. It passes bytes on with backpressure (a socket that does not take more
// stops the other from being read), as a network would.

export interface Flow {
  /** Bytes passed on so far. */
  total: number;
  /** (time in ms, bytes so far) at each chunk. */
  samples: { t: number; total: number }[];
  /** Bytes passed on, per connection (in the order they were made). */
  perConnection: number[];
}

export interface Meter {
  /** The base URL to give the client instead of the sandbox's. */
  baseUrl: string;
  /** Client to sandbox (uploads). */
  up: Flow;
  /** Sandbox to client (downloads). */
  down: Flow;
  close(): Promise<void>;
}

const flow = (): Flow => ({ total: 0, samples: [], perConnection: [] });

/** The connections that carried more than `bulk` bytes of `f` since `before` (a copy of it). */
export function busyConnections(f: Flow, before: number[], bulk: number): number {
  return f.perConnection.filter((n, i) => n - (before[i] ?? 0) > bulk).length;
}

export async function startMeter(target: string): Promise<Meter> {
  const to = new URL(target);
  const up = flow();
  const down = flow();
  const sockets = new Set<net.Socket>();
  const relay = (from: net.Socket, into: net.Socket, f: Flow) => {
    const conn = f.perConnection.push(0) - 1;
    from.on('data', (chunk: Buffer) => {
      f.total += chunk.length;
      f.perConnection[conn]! += chunk.length;
      f.samples.push({ t: performance.now(), total: f.total });
      if (!into.write(chunk)) {
        from.pause();
        into.once('drain', () => from.resume());
      }
    });
    from.on('end', () => into.end());
    from.on('error', () => into.destroy());
    from.on('close', () => into.destroy());
  };
  const server = net.createServer((client) => {
    const service = net.connect(Number(to.port), to.hostname);
    sockets.add(client).add(service);
    client.on('close', () => sockets.delete(client));
    service.on('close', () => sockets.delete(service));
    relay(client, service, up);
    relay(service, client, down);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${to.pathname.replace(/\/$/, '')}`,
    up,
    down,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The rate of `f`, in bytes per second, over the bytes from `from` to `to` (counted from `base`,
 * what the flow had passed before the transfer): the transfer's own time between two of its
 * marks, not a clock against a sleep. Marks inside the transfer leave out its start (buffers
 * on the way fill at once) and its end.
 */
export function rateOf(f: Flow, base: number, from: number, to: number): number {
  const at = (mark: number) => {
    const s = f.samples.find((x) => x.total - base >= mark);
    if (!s) throw new Error(`the flow never passed ${mark} bytes (it passed ${f.total - base})`);
    return s;
  };
  const a = at(from);
  const b = at(to);
  // Both marks passed at once: faster than any clock here tells.
  if (b.t === a.t) return Infinity;
  return ((b.total - a.total) / (b.t - a.t)) * 1000;
}
