import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { PROFILES_TABLE, TOKEN_RANGES_TABLE } from './postgres-schema.js';

/** hex digits of a range's prefix: 4,096 ranges of 4,096 tokens each */
export const PREFIX_DIGITS = 3;
const RANGE_TOKENS = 16 ** (6 - PREFIX_DIGITS);
/** tokens reserved at a time to begin with (a range holds more) */
const RESERVE_MIN = 2_000;
/** the most reserved at a time: the target doubles up to this whenever the pool ran dry between two refills */
const RESERVE_MAX = 16_000;
/** claims older than this are deleted by any instance, used up or not */
export const RESERVATION_EXPIRY_MS = 3_600_000;
/** a reserved token is handed out at most this long after its range was claimed, well before anyone may delete the claim */
const USE_WITHIN_MS = RESERVATION_EXPIRY_MS / 2;
/**
 * A range this instance used up is given back this long after its last token was handed out: its
 * profiles are stored by then (the profiles table's key guards their tokens, and whoever claims
 * the range next leaves them out), or dropped.
 */
export const RELEASE_AFTER_MS = 60_000;
const CLEAN_UP_INTERVAL_MS = 10_000;
/** after a failed refill (the database away), the next one waits this long */
const RETRY_MS = 1_000;
/** the last character after every hex digit: `prefix` ≤ token < `prefix` + this is the range */
const PAST_HEX = 'g';

interface Range {
  prefix: string;
  /** its tokens no stored profile has, in random order */
  tokens: string[];
  /** performance.now() before the claim was sent: the database's reserved_at is later */
  askedAt: number;
}

export interface TokenPoolOptions {
  /** `count` candidate prefixes to claim (tests narrow them to make collisions certain) */
  draw?: (count: number) => string[];
  /** how long after its last token a used-up range is given back (tests shorten it) */
  releaseAfterMs?: number;
}

/**
 * Tokens this instance reserved in the database ahead of use, so that no two instances ever hand
 * out the same one. A reservation claims a whole range of tokens (those sharing a 3-hex-digit
 * prefix) in one row of the ranges table, whose primary key gives each range one owner; the
 * tokens of the range that stored profiles already have are left out. take() is synchronous, and
 * the pool is refilled in the background once below half its size. The clean-up, every
 * CLEAN_UP_INTERVAL_MS, gives back this instance's used-up ranges RELEASE_AFTER_MS after their
 * last token, and deletes anyone's claims older than RESERVATION_EXPIRY_MS. One row per 4,096
 * tokens instead of one per token: reserving cost the database a quarter of what writing the
 * profiles did.
 */
export class TokenPool {
  readonly #pool: pg.Pool;
  readonly #instance: () => string;
  readonly #draw: (count: number) => string[];
  readonly #releaseAfterMs: number;
  /** this pool's name in the claims it makes, so that it gives back only its own */
  readonly #claimant = randomBytes(8).toString('hex');
  #ranges: Range[] = [];
  /** prefixes of used-up ranges, with when their last token was handed out */
  #spent: { prefix: string; at: number }[] = [];
  #size = 0;
  #target = RESERVE_MIN;
  #ranDry = false;
  #refilling: Promise<void> | null = null;
  #retryAfter = 0;
  #cleaning: Promise<void> | null = null;
  #closed = false;
  readonly #timer: NodeJS.Timeout;

  constructor(pool: pg.Pool, instance: () => string, options: TokenPoolOptions = {}) {
    this.#pool = pool;
    this.#instance = instance;
    this.#draw = options.draw ?? randomPrefixes;
    this.#releaseAfterMs = options.releaseAfterMs ?? RELEASE_AFTER_MS;
    this.#timer = setInterval(() => void this.cleanUp(), CLEAN_UP_INTERVAL_MS).unref();
  }

  /** reserved tokens at hand */
  get size(): number {
    return this.#size;
  }

  /** A token reserved for this instance, or null when none is at hand (a refill is then started). */
  take(): string | null {
    const now = performance.now();
    while (this.#ranges.length > 0) {
      const range = this.#ranges[0];
      const token = now - range.askedAt < USE_WITHIN_MS ? range.tokens.pop() : undefined;
      if (token === undefined || range.tokens.length === 0) {
        this.#size -= range.tokens.length;
        this.#ranges.shift();
        this.#spent.push({ prefix: range.prefix, at: now });
        if (token === undefined) continue;
      }
      this.#size--;
      if (this.#size < this.#target / 2) void this.refill();
      return token;
    }
    this.#ranDry = true;
    void this.refill();
    return null;
  }

  /** Reserves tokens up to the pool's size unless that is under way; never rejects (the pool stays as it is when the database is away). */
  refill(): Promise<void> {
    if (this.#closed || this.#refilling || performance.now() < this.#retryAfter)
      return this.#refilling ?? Promise.resolve();
    this.#refilling = this.#reserve()
      .catch(() => {
        this.#retryAfter = performance.now() + RETRY_MS;
      })
      .finally(() => {
        this.#refilling = null;
      });
    return this.#refilling;
  }

  async #reserve(): Promise<void> {
    if (this.#ranDry) {
      this.#target = Math.min(RESERVE_MAX, this.#target * 2);
      this.#ranDry = false;
    }
    const wanted = this.#target - this.#size;
    if (wanted <= 0) return;
    const count = Math.ceil(wanted / RANGE_TOKENS);
    const askedAt = performance.now();
    const claimed = await this.#pool.query<{ prefix: string }>(
      `INSERT INTO ${TOKEN_RANGES_TABLE} (prefix, claimant, instance)
        SELECT c.prefix, $2, $3 FROM unnest($1::text[]) AS c(prefix)
        WHERE NOT EXISTS (SELECT 1 FROM ${TOKEN_RANGES_TABLE} r WHERE r.prefix = c.prefix) LIMIT $4
        ON CONFLICT (prefix) DO NOTHING RETURNING prefix`,
      [this.#draw(4 * count + 4), this.#claimant, this.#instance(), count],
    );
    const prefixes = claimed.rows.map((row) => row.prefix);
    if (prefixes.length === 0) return;
    // Looked at after the claim is committed: a profile stored under one of these tokens is either
    // seen here or was drawn after this claim by no one who respects it.
    const stored = await this.#pool.query<{ token: string }>(
      `SELECT p.token FROM unnest($1::text[]) AS r(prefix) JOIN ${PROFILES_TABLE} p ON p.token >= r.prefix AND p.token < r.prefix || '${PAST_HEX}'`,
      [prefixes],
    );
    const taken = new Set(stored.rows.map((row) => row.token));
    if (this.#closed) {
      await this.#release(prefixes);
      return;
    }
    for (const prefix of prefixes) {
      const tokens = shuffled(rangeTokens(prefix).filter((token) => !taken.has(token)));
      if (tokens.length === 0) {
        this.#spent.push({ prefix, at: -Infinity });
        continue;
      }
      this.#ranges.push({ prefix, tokens, askedAt });
      this.#size += tokens.length;
    }
  }

  /**
   * Gives back this instance's ranges used up RELEASE_AFTER_MS ago and deletes every claim older
   * than RESERVATION_EXPIRY_MS, whichever instance made it; rows another instance is deleting are
   * skipped, not waited for. Never rejects.
   */
  cleanUp(): Promise<void> {
    if (this.#cleaning) return this.#cleaning;
    const before = performance.now() - this.#releaseAfterMs;
    const due = this.#spent.filter((spent) => spent.at <= before).map((spent) => spent.prefix);
    this.#cleaning = this.#pool
      .query(
        `DELETE FROM ${TOKEN_RANGES_TABLE} WHERE prefix IN (SELECT r.prefix FROM ${TOKEN_RANGES_TABLE} r
        WHERE r.reserved_at < now() - make_interval(secs => $1) OR (r.claimant = $2 AND r.prefix = ANY($3::text[]))
        FOR UPDATE SKIP LOCKED)`,
        [RESERVATION_EXPIRY_MS / 1000, this.#claimant, due],
      )
      .then(
        () => {
          const given = new Set(due);
          this.#spent = this.#spent.filter((spent) => !given.has(spent.prefix));
        },
        () => {},
      )
      .finally(() => {
        this.#cleaning = null;
      });
    return this.#cleaning;
  }

  /** Gives back every range this pool claimed (the store wrote its profiles before) and cleans up; never rejects. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#refilling;
    this.#ranges = [];
    this.#spent = [];
    this.#size = 0;
    await this.#cleaning;
    await this.#pool.query(`DELETE FROM ${TOKEN_RANGES_TABLE} WHERE claimant = $1`, [this.#claimant]).catch(() => {});
    await this.cleanUp();
  }

  async #release(prefixes: string[]): Promise<void> {
    await this.#pool
      .query(`DELETE FROM ${TOKEN_RANGES_TABLE} WHERE claimant = $1 AND prefix = ANY($2::text[])`, [
        this.#claimant,
        prefixes,
      ])
      .catch(() => {});
  }
}

/** The tokens of the range `prefix`, in order. */
function rangeTokens(prefix: string): string[] {
  const digits = 6 - prefix.length;
  return Array.from({ length: 16 ** digits }, (_, i) => prefix + i.toString(16).padStart(digits, '0'));
}

/** The same tokens in an order drawn from a cryptographic source (Fisher-Yates). */
function shuffled(tokens: string[]): string[] {
  const random = randomBytes(4 * tokens.length);
  for (let i = tokens.length - 1; i > 0; i--) {
    const j = random.readUInt32LE(4 * i) % (i + 1);
    [tokens[i], tokens[j]] = [tokens[j], tokens[i]];
  }
  return tokens;
}

/** `count` distinct random prefixes of PREFIX_DIGITS hex digits (all of them when there are fewer). */
export function randomPrefixes(count: number): string[] {
  const space = 16 ** PREFIX_DIGITS;
  const prefixes = new Set<string>();
  const wanted = Math.min(count, space);
  while (prefixes.size < wanted) {
    const bytes = randomBytes(2 * (wanted - prefixes.size));
    for (let i = 0; i < bytes.length && prefixes.size < wanted; i += 2)
      prefixes.add((bytes.readUInt16LE(i) % space).toString(16).padStart(PREFIX_DIGITS, '0'));
  }
  return [...prefixes];
}
