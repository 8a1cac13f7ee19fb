// Fault injection for API requests (never /_sandbox/*), replayable from a seed.
import { mulberry32 } from '../shared/random';

export interface FaultSettings {
  /** Answer this fraction of requests with 503 before handling them. */
  fail: number;
  /** Handle the request, commit it, then destroy the connection without answering. */
  lost: number;
  /** Destroy the connection before handling. */
  reset: number;
  /** Milliseconds added to every request, uniform in [min, max]. */
  latency: [number, number];
  /** Requests per second per token above which 429 is answered; 0 = unlimited. */
  ratelimit: number;
  /** Answer 401 as if the access token had just expired. */
  expire: number;
  /**
   * The Retry-After (whole seconds) of the 503s and 429s: the client waits it out, so a test
   * about something else can say 0 and not wait a second per fault.
   */
  after: number;
  seed: number;
}

export const NO_FAULTS: FaultSettings = {
  fail: 0,
  lost: 0,
  reset: 0,
  latency: [0, 0],
  ratelimit: 0,
  expire: 0,
  after: 1,
  seed: 1,
};

function fraction(key: string, value: string): number {
  const n = Number(value);
  if (value === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new Error(`fault ${key}=${value}: expected a fraction between 0 and 1`);
  }
  return n;
}

/** Parses `fail=0.1,lost=0.05,latency=5-20,ratelimit=50,expire=0.01,reset=0.02,after=0,seed=7`. */
export function parseFaults(spec: string, base: FaultSettings = NO_FAULTS): FaultSettings {
  const out: FaultSettings = { ...base, latency: [...base.latency] };
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    switch (key) {
      case 'fail':
      case 'lost':
      case 'reset':
      case 'expire':
        out[key] = fraction(key, value);
        break;
      case 'latency': {
        const m = /^(\d+)(?:-(\d+))?$/.exec(value);
        if (!m) throw new Error(`fault latency=${value}: expected A-B in milliseconds`);
        const a = Number(m[1]);
        const b = m[2] === undefined ? a : Number(m[2]);
        if (b < a) throw new Error(`fault latency=${value}: B must not be below A`);
        out.latency = [a, b];
        break;
      }
      case 'ratelimit': {
        const n = Number(value);
        if (!Number.isSafeInteger(n) || n < 0) {
          throw new Error(`fault ratelimit=${value}: expected requests per second`);
        }
        out.ratelimit = n;
        break;
      }
      case 'after': {
        const n = Number(value);
        if (value === '' || !Number.isSafeInteger(n) || n < 0) {
          throw new Error(`fault after=${value}: expected whole seconds`);
        }
        out.after = n;
        break;
      }
      case 'seed': {
        const n = Number(value);
        if (!Number.isSafeInteger(n)) throw new Error(`fault seed=${value}: expected an integer`);
        out.seed = n;
        break;
      }
      default:
        throw new Error(
          `unknown fault "${key}" (known: fail, lost, reset, latency, ratelimit, expire, after, seed)`,
        );
    }
  }
  return out;
}

export interface FaultDecision {
  delayMs: number;
  action: 'none' | 'reset' | 'fail' | 'ratelimit' | 'expire' | 'lost';
}

export class FaultInjector {
  private settings: FaultSettings = NO_FAULTS;
  private random: () => number = mulberry32(NO_FAULTS.seed);
  private readonly windows = new Map<string, { second: number; count: number }>();
  /** How many faults of each kind were injected. */
  readonly injected: Record<FaultDecision['action'], number> = {
    none: 0,
    reset: 0,
    fail: 0,
    ratelimit: 0,
    expire: 0,
    lost: 0,
  };

  get current(): FaultSettings {
    return { ...this.settings, latency: [...this.settings.latency] };
  }

  set(settings: FaultSettings): void {
    this.settings = settings;
    this.random = mulberry32(settings.seed);
    this.windows.clear();
  }

  /**
   * Decides the fate of one request. Every request draws the same random numbers whatever
   * the settings, so that one seed replays one run.
   */
  decide(tokenKey: string | null, hasBearer: boolean): FaultDecision {
    const s = this.settings;
    const [rLatency, rReset, rFail, rExpire, rLost] = [
      this.random(),
      this.random(),
      this.random(),
      this.random(),
      this.random(),
    ];
    const delayMs = Math.round(s.latency[0] + rLatency * (s.latency[1] - s.latency[0]));
    let action: FaultDecision['action'] = 'none';
    if (rReset < s.reset) action = 'reset';
    else if (rFail < s.fail) action = 'fail';
    else if (s.ratelimit > 0 && this.overLimit(tokenKey ?? 'anonymous')) action = 'ratelimit';
    else if (hasBearer && rExpire < s.expire) action = 'expire';
    else if (rLost < s.lost) action = 'lost';
    this.injected[action]++;
    return { delayMs, action };
  }

  private overLimit(key: string): boolean {
    const second = Math.floor(Date.now() / 1000);
    const w = this.windows.get(key);
    if (!w || w.second !== second) {
      this.windows.set(key, { second, count: 1 });
      return false;
    }
    w.count++;
    return w.count > this.settings.ratelimit;
  }
}
