import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A small forward proxy on 127.0.0.1, as tinyproxy or squid behave for a client: absolute-URI
 * requests (`GET http://host:port/path`) forwarded for http targets, `CONNECT host:port`
 * tunnels for https ones. It notes what passed through it, and may be told to refuse.
 */
export interface TestProxy {
  /** `http://127.0.0.1:PORT`, or with `user:password@` when it asks for them. */
  url: string;
  /** Each request it saw: `GET http://127.0.0.1:4000/workspaces`, `CONNECT host:443`. */
  seen: string[];
  /** The Proxy-Authorization headers it was sent (to check that the credentials went). */
  authorizations: string[];
  close(): Promise<void>;
}

export interface TestProxyOptions {
  /** Answer every request and CONNECT with this status instead of passing it on (407, 502…). */
  refuse?: number;
  /** Ask for these credentials (407 without them). */
  credentials?: { user: string; password: string };
}

export async function startTestProxy(opts: TestProxyOptions = {}): Promise<TestProxy> {
  const seen: string[] = [];
  const authorizations: string[] = [];
  const sockets = new Set<Socket>();
  const expected = opts.credentials
    ? 'Basic ' +
      Buffer.from(`${opts.credentials.user}:${opts.credentials.password}`).toString('base64')
    : null;
  /** The status to refuse `req` with, or null to let it through. */
  const refusal = (req: IncomingMessage): number | null => {
    const auth = req.headers['proxy-authorization'];
    if (typeof auth === 'string') authorizations.push(auth);
    if (opts.refuse !== undefined) return opts.refuse;
    if (expected !== null && auth !== expected) return 407;
    return null;
  };

  const server: Server = createServer((req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
    const status = refusal(req);
    if (status !== null) {
      res.writeHead(status, status === 407 ? { 'proxy-authenticate': 'Basic realm="test"' } : {});
      res.end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: target.pathname + target.search,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url ?? ''}`);
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const status = refusal(req);
    if (status !== null) {
      client.end(`HTTP/1.1 ${status} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = connect(Number(port), host ?? '', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      client.destroy();
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const auth = opts.credentials
    ? `${encodeURIComponent(opts.credentials.user)}:${encodeURIComponent(opts.credentials.password)}@`
    : '';
  return {
    url: `http://${auth}127.0.0.1:${port}`,
    seen,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
