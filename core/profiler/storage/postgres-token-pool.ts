import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { PROFILES_TABLE, RESERVATIONS_TABLE } from './postgres-schema.js';

/** tokens reserved at a time to begin with */
const RESERVE_MIN = 2_000;
/** the most reserved at a time: the batch doubles up to this whenever the pool ran dry between two refills */
const RESERVE_MAX = 16_000;
/** reservations older than this are deleted by any instance, used or not */
export const RESERVATION_EXPIRY_MS = 3_600_000;
/** a reserved token is handed out at most this long after it was asked for, well before anyone may delete its reservation */
const USE_WITHIN_MS = RESERVATION_EXPIRY_MS / 2;
const CLEAN_UP_INTERVAL_MS = 10_000;
/** after a failed refill (the database away), the next one waits this long */
const RETRY_MS = 1_000;

interface Batch {
  tokens: string[];
  /** performance.now() before the reservation was sent: the database's reserved_at is later */
  askedAt: number;
}

/**
 * Tokens this instance reserved in the database ahead of use, so that no two instances ever hand
 * out the same one. A reservation is a row of the reservations table (its primary key: one owner
 * per token) made only for a token no stored profile has; take() is synchronous, and the pool is
 * refilled in the background once below half its size. Reservations whose profile is stored (the
 * profiles table's key guards the token from then on) and any older than RESERVATION_EXPIRY_MS are
 * deleted every CLEAN_UP_INTERVAL_MS, so the table stays small.
 */
export class TokenPool {
  readonly #pool: pg.Pool;
  readonly #instance: () => string;
  readonly #draw: (count: number) => string[];
  #batches: Batch[] = [];
  #size = 0;
  #target = RESERVE_MIN;
  #ranDry = false;
  #refilling: Promise<void> | null = null;
  #retryAfter = 0;
  #cleaning: Promise<void> | null = null;
  #closed = false;
  readonly #timer: NodeJS.Timeout;

  /** `draw` makes the candidates to reserve (tests narrow them to make collisions certain) */
  constructor(pool: pg.Pool, instance: () => string, draw: (count: number) => string[] = randomTokens) {
    this.#pool = pool;
    this.#instance = instance;
    this.#draw = draw;
    this.#timer = setInterval(() => void this.cleanUp(), CLEAN_UP_INTERVAL_MS).unref();
  }

  /** reserved tokens at hand */
  get size(): number {
    return this.#size;
  }

  /** A token reserved for this instance, or null when none is at hand (a refill is then started). */
  take(): string | null {
    const now = performance.now();
    while (this.#batches.length > 0) {
      const batch = this.#batches[0];
      const token = now - batch.askedAt < USE_WITHIN_MS ? batch.tokens.pop() : undefined;
      if (token === undefined) {
        this.#size -= batch.tokens.length;
        this.#batches.shift();
        continue;
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
    if (this.#closed || this.#refilling || performance.now() < this.#retryAfter) return this.#refilling ?? Promise.resolve();
    this.#refilling = this.#reserve().catch(() => {
      this.#retryAfter = performance.now() + RETRY_MS;
    }).finally(() => {
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
    const askedAt = performance.now();
    const inserted = await this.#pool.query<{ token: string }>(
      `INSERT INTO ${RESERVATIONS_TABLE} (token, instance)
        SELECT c.token, $2 FROM unnest($1::text[]) AS c(token) WHERE NOT EXISTS (SELECT 1 FROM ${PROFILES_TABLE} p WHERE p.token = c.token)
        ON CONFLICT (token) DO NOTHING RETURNING token`, [this.#draw(wanted), this.#instance()]);
    const tokens = inserted.rows.map((row) => row.token);
    // The INSERT saw the profiles of its snapshot only: a profile committed meanwhile, whose
    // reservation was then cleaned up, shows in this later look, and its token is left out.
    const stored = await this.#pool.query<{ token: string }>(`SELECT token FROM ${PROFILES_TABLE} WHERE token = ANY($1::text[])`, [tokens]);
    const taken = new Set(stored.rows.map((row) => row.token));
    const fresh = taken.size === 0 ? tokens : tokens.filter((token) => !taken.has(token));
    if (this.#closed) {
      await this.#release(fresh);
      return;
    }
    this.#batches.push({ tokens: fresh, askedAt });
    this.#size += fresh.length;
  }

  /**
   * Deletes the reservations whose profile is stored and those older than RESERVATION_EXPIRY_MS,
   * whichever instance made them; rows another instance is deleting are skipped, not waited for.
   */
  cleanUp(): Promise<void> {
    this.#cleaning ??= this.#pool.query(
      `DELETE FROM ${RESERVATIONS_TABLE} WHERE token IN (SELECT r.token FROM ${RESERVATIONS_TABLE} r
        WHERE r.reserved_at < now() - make_interval(secs => $1) OR EXISTS (SELECT 1 FROM ${PROFILES_TABLE} p WHERE p.token = r.token)
        FOR UPDATE SKIP LOCKED)`, [RESERVATION_EXPIRY_MS / 1000]).then(() => {}, () => {}).finally(() => {
      this.#cleaning = null;
    });
    return this.#cleaning;
  }

  /** Gives back the tokens not handed out and cleans up what was used; never rejects. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#refilling;
    const unused = this.#batches.flatMap((batch) => batch.tokens);
    this.#batches = [];
    this.#size = 0;
    await this.#release(unused);
    await this.#cleaning;
    await this.cleanUp();
  }

  async #release(tokens: string[]): Promise<void> {
    if (tokens.length === 0) return;
    await this.#pool.query(`DELETE FROM ${RESERVATIONS_TABLE} WHERE token = ANY($1::text[])`, [tokens]).catch(() => {});
  }
}

/** `count` distinct random 6-hex tokens, from a cryptographic source. */
export function randomTokens(count: number): string[] {
  const tokens = new Set<string>();
  while (tokens.size < count) {
    const bytes = randomBytes(3 * (count - tokens.size));
    for (let i = 0; i < bytes.length; i += 3) tokens.add(bytes.toString('hex', i, i + 3));
  }
  return [...tokens];
}
