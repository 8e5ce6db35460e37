import type { LatencySummary } from '@memory/evaluation';

/**
 * What the bench asks of its load generator, a process of its own (load-generator.ts), and what it answers. The
 * generator gets the service's address and a seed, and makes its own texts, so only these small objects cross.
 */
interface Service {
  url: string;
  apiKey: string;
  seed: number;
}

/** Text ingests, as fast as `connections` keep-alive connections allow, for `seconds` (autocannon). */
export interface EdgeCommand extends Service {
  kind: 'edge';
  connections: number;
  seconds: number;
  /** Spread over a few end users, as several applications would send. */
  endUserIds: string[];
}

/** `queries` generated queries with automatic routing, `clients` at a time, each to one of the users in turn. */
export interface SearchCommand extends Service {
  kind: 'search';
  endUserIds: string[];
  queries: number;
  clients: number;
}

/**
 * Memories at a steady rate, each searched for (direct_lookup of a unique code) from its 202 until found. With
 * `refusable`, a 429, 503 or 507 is counted (the overload scenario sends more than the service admits) instead of
 * ending the run.
 */
export interface FreshnessCommand extends Service {
  kind: 'freshness';
  endUserId: string;
  ratePerS: number;
  seconds: number;
  refusable?: boolean;
  /** How often the poller asks (20 ms unless said): two tenants' pollers at once ask twice as often in all. */
  pollMs?: number;
}

/**
 * Corrections: `ratePerS × seconds` memories are ingested first and waited for; then each is updated (PATCH, new
 * content with a new unique code) at a steady rate and searched for by that code from its 202 until found.
 */
export interface UpdateCommand extends Service {
  kind: 'update';
  endUserId: string;
  ratePerS: number;
  seconds: number;
}

/**
 * Reading memories back, one client: `requests` pages of 100 of GET /v1/memories (walked with their cursors, newest
 * first, from the first page again at the end), then `requests` GET /v1/memories/{id} of ids those pages showed.
 */
export interface ReadCommand extends Service {
  kind: 'read';
  endUserId: string;
  requests: number;
}

export type LoadCommand = EdgeCommand | SearchCommand | FreshnessCommand | UpdateCommand | ReadCommand;

export interface EdgeLevel {
  connections: number;
  seconds: number;
  accepted: number;
  refused: number;
  acceptedPerS: number;
  latency: LatencySummary;
}

export interface Freshness {
  ratePerS: number;
  sent: number;
  /** Answered 202; the latency is of these. */
  accepted: number;
  /** The answers that refused, by status code ("429": n, ...). */
  refused: Record<string, number>;
  neverFound: number;
  latency: LatencySummary;
}

export interface Reads {
  get: LatencySummary;
  listPage: LatencySummary;
}

export interface LoadResults {
  edge: EdgeLevel;
  search: LatencySummary;
  freshness: Freshness;
  update: Freshness;
  read: Reads;
}

export type LoadResult<C extends LoadCommand> = LoadResults[C['kind']];
