import { BlockList, isIP } from 'node:net';
import { Agent, errors as undiciErrors, Pool, ProxyAgent, type Dispatcher } from 'undici';
import type { Words } from '../../shared/i18n';
import { checkProxyUrl, PROXY_EXAMPLE, shownProxyUrl } from '../../shared/proxy-url';
import { ApiError, registerSecret } from './errors';

/**
 * Which proxy each request goes through: the proxy setting (the window's, or `--proxy`) when one
 * is set, else the environment as curl reads it (`https_proxy`/`HTTPS_PROXY` for https targets,
 * `http_proxy`/`HTTP_PROXY` for http ones, lowercase first; `no_proxy`/`NO_PROXY` for the
 * exceptions), else none. One dispatcher per process holds the direct pool and one undici
 * `ProxyAgent` per proxy, all with the same connection options; it is rebuilt when the
 * setting or the variables change, so a new setting applies to the next request.
 *
 * Not undici's `EnvHttpProxyAgent`: it reads `process.env` itself (the CLI runs with the
 * environment it is given), sends https requests through HTTP_PROXY when HTTPS_PROXY is unset
 * (curl does not), and would send requests for this computer to a proxy elsewhere.
 */

/** The pools' options, direct and through a proxy alike: bounded per origin, firm timeouts. */
export const POOL_OPTIONS = {
  connections: 8,
  keepAliveTimeout: 10_000,
  keepAliveMaxTimeout: 60_000,
  headersTimeout: 30_000,
  bodyTimeout: 60_000,
} as const;
export const CONNECT_TIMEOUT_MS = 10_000;

/** A proxy that could not be used, or that refused a request: one line a person can act on. */
export class ProxyError extends ApiError {
  readonly kind = 'proxy';
}

interface ProxyChoice {
  url: URL;
  /** Where it came from, for messages: "The proxy setting" (as words), "HTTPS_PROXY". */
  source: string | Words;
}

/** What decides the routes: compared between requests to rebuild only on a change. */
interface Inputs {
  setting: string;
  http: { name: string; value: string } | null;
  https: { name: string; value: string } | null;
  noProxy: string;
}

/** The first of the variables that is set and not blank (curl: the lowercase one first). */
function variable(env: NodeJS.ProcessEnv, lower: string): { name: string; value: string } | null {
  for (const name of [lower, lower.toUpperCase()]) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return null;
}

function inputsOf(setting: string, env: NodeJS.ProcessEnv): Inputs {
  return {
    setting: setting.trim(),
    http: variable(env, 'http_proxy'),
    https: variable(env, 'https_proxy'),
    noProxy: variable(env, 'no_proxy')?.value ?? '',
  };
}

function parseChoice(value: string, source: string | Words): ProxyChoice {
  const problem = checkProxyUrl(value);
  if (problem) {
    // The same words as describeProxyProblem (shared/proxy-url.ts), for each reader's language;
    // the selector is the problem's kind without dashes (ICU selectors are plain words).
    const words: Words = {
      key: 'service.proxyProblem',
      params: {
        kind: problem.kind.replace(/-/g, '_'),
        example: PROXY_EXAMPLE,
        scheme: problem.kind === 'scheme' ? problem.scheme : '',
      },
    };
    throw new ProxyError(
      'proxy',
      { key: 'service.proxyUnusable', params: { source, problem: words } },
      false,
    );
  }
  const url = new URL(value);
  registerSecret(decodeURIComponent(url.password));
  return { url, source };
}

/** Hosts that are this computer: a proxy elsewhere would reach its own, not ours. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * NO_PROXY as curl reads it: names separated by commas or spaces; `*` alone for every host; a
 * name matches itself and the names under it (`example.com`, `.example.com` and
 * `*.example.com` all match `files.example.com`); `host:port` only that port; an IP address or
 * a range of them (`10.0.0.0/8`, `fd00::/8`) the addresses in it.
 */
export function noProxyMatcher(value: string): (hostname: string, port: number) => boolean {
  const entries = value.split(/[\s,]+/).filter((e) => e !== '');
  if (entries.includes('*')) return () => true;
  const ranges = new BlockList();
  const names: { host: string; port: number }[] = [];
  for (const entry of entries) {
    const range = /^([^/]+)\/(\d{1,3})$/.exec(entry);
    const family = range ? isIP(range[1]!) : 0;
    if (range && family !== 0) {
      const prefix = Number(range[2]);
      if (prefix <= (family === 4 ? 32 : 128))
        ranges.addSubnet(range[1]!, prefix, family === 4 ? 'ipv4' : 'ipv6');
      continue;
    }
    // A port after a name, an IPv4 address or a bracketed IPv6 one (a bare IPv6 has colons).
    const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    const host = (withPort ? withPort[1]! : entry)
      .replace(/^\[|\]$/g, '')
      .replace(/^\*?\./, '')
      .toLowerCase();
    names.push({ host, port: withPort ? Number(withPort[2]) : 0 });
  }
  return (hostname, port) => {
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const family = isIP(host);
    if (family !== 0 && ranges.check(host, family === 4 ? 'ipv4' : 'ipv6')) return true;
    return names.some(
      (n) => (n.port === 0 || n.port === port) && (host === n.host || host.endsWith(`.${n.host}`)),
    );
  };
}

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The routes of one set of inputs. */
class Routes {
  private readonly http: ProxyChoice | null;
  private readonly https: ProxyChoice | null;
  private readonly bypass: (hostname: string, port: number) => boolean;

  constructor(inputs: Inputs) {
    if (inputs.setting !== '') {
      this.http = this.https = parseChoice(inputs.setting, { key: 'service.proxySetting' });
    } else {
      this.http = inputs.http ? parseChoice(inputs.http.value, inputs.http.name) : null;
      this.https = inputs.https ? parseChoice(inputs.https.value, inputs.https.name) : null;
    }
    this.bypass = noProxyMatcher(inputs.noProxy);
  }

  /** The proxy for requests to `origin`, or null to go direct. */
  proxyFor(origin: URL): ProxyChoice | null {
    const choice = origin.protocol === 'https:' ? this.https : this.http;
    if (!choice) return null;
    const port = Number(origin.port) || DEFAULT_PORT[origin.protocol] || 0;
    if (this.bypass(origin.hostname, port)) return null;
    // This computer is reached through a proxy only if the proxy is on it too: one elsewhere
    // would connect to its own loopback, and plain http would carry the token off this computer.
    if (isLoopbackHost(origin.hostname) && !isLoopbackHost(choice.url.hostname)) return null;
    return choice;
  }
}

function poolFactory(origin: string | URL, opts: object): Dispatcher {
  return new Pool(origin, { ...POOL_OPTIONS, ...(opts as Pool.Options) });
}

function proxyAgentFor(url: URL): ProxyAgent {
  return new ProxyAgent({
    uri: url.href,
    ...POOL_OPTIONS,
    // http targets as curl sends them, the absolute URL to the proxy (proxies commonly allow
    // CONNECT to port 443 only); https ones through a CONNECT tunnel, end to end encrypted.
    proxyTunnel: false,
    // Every pool, to the proxy and through it, keeps the direct pool's options.
    factory: poolFactory,
    clientFactory: poolFactory,
    proxyTls: { timeout: CONNECT_TIMEOUT_MS },
    requestTls: { timeout: CONNECT_TIMEOUT_MS },
  });
}

/** The process's dispatcher for one set of inputs. */
class Routed {
  readonly routes: Routes;
  readonly dispatcher: Dispatcher;
  private readonly direct: Agent;
  private readonly agents = new Map<string, ProxyAgent>();

  constructor(inputs: Inputs) {
    this.routes = new Routes(inputs);
    this.direct = new Agent({ ...POOL_OPTIONS, connect: { timeout: CONNECT_TIMEOUT_MS } });
    this.dispatcher = this.direct.compose((dispatch) => (opts, handler) => {
      const proxy = opts.origin === undefined ? null : this.routes.proxyFor(new URL(opts.origin));
      return proxy ? this.agentFor(proxy.url).dispatch(opts, handler) : dispatch(opts, handler);
    });
  }

  private agentFor(url: URL): ProxyAgent {
    let agent = this.agents.get(url.href);
    if (!agent) this.agents.set(url.href, (agent = proxyAgentFor(url)));
    return agent;
  }

  /** Lets the requests under way finish, then closes every connection. */
  async close(): Promise<void> {
    await Promise.all([this.direct.close(), ...[...this.agents.values()].map((a) => a.close())]);
  }
}

/** The setting given last (by the backend from the settings, or by the CLI from `--proxy`). */
let config: { setting: string; env: NodeJS.ProcessEnv } = { setting: '', env: process.env };
let current: { key: string; routed: Routed } | null = null;

/**
 * The proxy setting for this process ('' = the environment's variables) and the environment to
 * read them from. Takes effect with the next request; a bad setting is refused with the first.
 */
export function configureProxy(next: { setting?: string; env?: NodeJS.ProcessEnv }): void {
  config = { setting: next.setting ?? '', env: next.env ?? process.env };
}

/** The routes now in force (throws a ProxyError for a setting or variable that is not usable). */
function routed(): Routed {
  const inputs = inputsOf(config.setting, config.env);
  const key = JSON.stringify(inputs);
  if (current?.key === key) return current.routed;
  const routed = new Routed(inputs);
  const old = current?.routed;
  current = { key, routed };
  old?.close().catch(() => undefined);
  return routed;
}

/** The dispatcher every request without one of its own goes through. */
export function sharedDispatcher(): Dispatcher {
  return routed().dispatcher;
}

/** The proxy requests to `origin` go through now, as it may be shown (no password), or null. */
export function proxyShownFor(origin: URL): string | null {
  const choice = routed().routes.proxyFor(origin);
  return choice ? shownProxyUrl(choice.url) : null;
}

/**
 * A 502 or 504 to a request a proxy forwarded (http targets): the proxy's own answer when it
 * could not reach the service, as likely as the service's gateway's; said naming both. Null for
 * other statuses, or a request that went direct.
 */
export function gatewayThroughProxy(
  status: number,
  origin: URL,
  endpoint: string,
): ProxyError | null {
  if (status !== 502 && status !== 504) return null;
  const proxy = proxyShownFor(origin);
  if (proxy === null) return null;
  return new ProxyError(
    endpoint,
    { key: 'service.proxyGateway', params: { status, proxy, host: origin.host } },
    true,
  );
}

/**
 * A proxy's refusal (its answer to CONNECT, or a 407 to a forwarded request), as one line
 * naming the proxy and what to do; null for any other failure. undici says it as
 * "Proxy response (502) !== 200 when HTTP Tunneling".
 */
export function proxyRefusal(err: unknown, origin: URL, endpoint: string): ProxyError | null {
  if (!(err instanceof undiciErrors.UndiciError)) return null;
  const status =
    /^Proxy response \((\d{3})\)/.exec(err.message)?.[1] ??
    (/^Proxy Authentication Required \(407\)/.test(err.message) ? '407' : undefined);
  if (status === undefined) return null;
  const code = Number(status);
  const proxy: string | Words = proxyShownFor(origin) ?? { key: 'service.theProxy' };
  // What each status means for the person (service.proxyWhy: 403, 407, 502, 503, 504, other).
  const why: Words = { key: 'service.proxyWhy', params: { status: String(code) } };
  return new ProxyError(
    endpoint,
    { key: 'service.proxyRefused', params: { proxy, host: origin.host, status: code, why } },
    code >= 500,
  );
}
