import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSandbox, type SandboxProcess } from '../../src/service/child';
import { api } from './helpers';
import { BOUNDARY } from './helpers-items';

// A request refused from its headers (before its body is read) still gets its answer read by
// the client: the sandbox reads and discards the body (or, past a bound, closes only after the
// answer is written), as a real server does. Closing with the body unread resets the
// connection, and a client still sending sees EPIPE or ECONNRESET instead of the answer.

const MiB = 1024 * 1024;
/** Sent at once, so that refusals overlap with bodies still on their way. */
const PARALLEL = 8;
const TIMES = 200;

let sbx: SandboxProcess;
let url: string;
let viewer: string;
let body: Buffer;

beforeAll(async () => {
  // In a process of its own, as the service is: the client's sends and the sandbox's answers
  // then really overlap.
  sbx = await spawnSandbox(['--seed', 'empty']);
  const { base_url: baseUrl, workspace_id: ws, users } = sbx.info;
  viewer = users.find((u) => u.role === 'Viewer')!.token;
  const admin = users.find((u) => u.role === 'Administrator')!.token;
  const roots = await api(baseUrl, 'GET', `/workspaces/${ws}/folders`, { token: admin });
  url = `${baseUrl}/folders/${roots.json.items[0].folder.id as number}/files`;
  body = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.alloc(MiB, 7),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}, 60_000);
afterAll(async () => {
  await sbx?.stop();
});

const REFUSED = { errors: { base: ['Your role may not upload files'] } };

/** Runs `one` `count` times, PARALLEL at once; resolves with every answer (or error) seen. */
async function times(one: () => Promise<string>, count = TIMES): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  let left = count;
  const worker = async () => {
    while (left-- > 0) {
      const said = await one().catch((err: unknown) => {
        const e = err as { cause?: { code?: string }; code?: string; message?: string };
        return `error ${e.cause?.code ?? e.code ?? e.message}`;
      });
      seen.set(said, (seen.get(said) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return seen;
}

function* blocks(data: Buffer): Generator<Buffer> {
  for (let at = 0; at < data.length; at += 64 * 1024) yield data.subarray(at, at + 64 * 1024);
}

const answer = (status: number, text: string) => `${status} ${text}`;

/** A refused upload of `data` through Node's fetch, streamed a block at a time. */
async function refusedFetch(data: Buffer): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${viewer}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    // Streamed as a file is: the answer comes while the body is still being sent.
    body: Readable.toWeb(Readable.from(blocks(data))) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  return answer(res.status, await res.text());
}

describe('an upload refused from its headers', () => {
  it('answers every fetch its 403, read whole while the body is still being sent', async () => {
    const seen = await times(() => refusedFetch(body));
    expect(Object.fromEntries(seen)).toEqual({
      [answer(403, JSON.stringify(REFUSED))]: TIMES,
    });
  }, 60_000);

  it('answers a body past what is drained, and closes only after the answer', async () => {
    // 12 MiB: past the bound, the answer closes the connection, gently.
    const big = Buffer.concat([body, Buffer.alloc(11 * MiB, 1)]);
    const seen = await times(() => refusedFetch(big), 24);
    expect(Object.fromEntries(seen)).toEqual({
      [answer(403, JSON.stringify(REFUSED))]: 24,
    });
  }, 60_000);

  it('answers every curl its 403', async () => {
    const seen = await times(
      () =>
        new Promise<string>((resolve, reject) => {
          const curl = spawn(
            'curl',
            [
              '-sS',
              '-o',
              '-',
              '-w',
              '\n%{http_code}',
              '-H',
              `authorization: Bearer ${viewer}`,
              '-H',
              `content-type: multipart/form-data; boundary=${BOUNDARY}`,
              '--data-binary',
              '@-',
              url,
            ],
            { stdio: ['pipe', 'pipe', 'pipe'] },
          );
          let out = '';
          let err = '';
          curl.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
          curl.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
          // curl may stop reading its input once the answer came: that is not a failure.
          curl.stdin.on('error', () => undefined);
          curl.stdin.end(body);
          curl.on('error', reject);
          curl.on('close', (code) => {
            if (code !== 0) return resolve(`error curl ${code} ${err.trim()}`);
            const nl = out.lastIndexOf('\n');
            resolve(answer(Number(out.slice(nl + 1)), out.slice(0, nl)));
          });
        }),
    );
    expect(Object.fromEntries(seen)).toEqual({
      [answer(403, JSON.stringify(REFUSED))]: TIMES,
    });
  }, 120_000);
});
