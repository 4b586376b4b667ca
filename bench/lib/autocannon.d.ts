// The part of autocannon 8's programmatic API bench/load.mjs uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Histogram {
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
  }

  /** A request as setupRequest gets it: a fresh object per request, the defaults merged in. */
  export interface RequestParams {
    method?: string;
    path?: string;
    body?: string;
    headers?: Record<string, string>;
  }

  /** Per connection; autocannon resets it after each pass over `requests`. */
  export type Context = Record<string, unknown>;

  export interface RequestStep extends RequestParams {
    setupRequest?: (req: RequestParams, context: Context) => RequestParams;
    onResponse?: (status: number, body: string, context: Context) => void;
  }

  export interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    requests?: RequestStep[];
  }

  export interface Result {
    duration: number;
    samples: number;
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    '2xx': number;
    non2xx: number;
    statusCodeStats?: Record<string, { count: number }>;
    errors: number;
    timeouts: number;
    resets: number;
  }

  export default function autocannon(options: Options, done: (err: Error | null, result: Result) => void): EventEmitter;
}
