import type { InvalidationTopic } from '../lib/invalidations.js';
import type { Db } from './connect.js';
import type { Bindable, PreparedStatement } from './prepared-statement.js';

/** Prepared statements (prepareStatement) run in a unit of work, or on a database outside one. */
export interface Statements {
  /** The first row the statement answers, if any. */
  first<A extends Bindable[], R>(statement: PreparedStatement<A, R>, ...args: A): Promise<R | undefined>;
  /** Every row the statement answers. */
  all<A extends Bindable[], R>(statement: PreparedStatement<A, R>, ...args: A): Promise<R[]>;
  /** Runs a write; answers how many rows it changed. */
  run<A extends Bindable[]>(statement: PreparedStatement<A, unknown>, ...args: A): Promise<number>;
}

/** What a change does once its transaction has committed: in order, awaited before the change answers. */
export type Effect = () => void | Promise<void>;

/**
 * A change's unit of work: its transaction (the statements run in it) and what goes out once it
 * commits, never if it rolls back. The rows a change writes as its effects (the audit entry, the
 * webhook outbox, the mail outbox) are written through the unit, so they commit with it.
 */
export interface Unit extends Statements {
  /** Runs `effect` once the unit has committed (a nudge of a dispatcher, a cache to drop); never on rollback. */
  afterCommit(effect: Effect): void;
  /**
   * Every instance drops its cached copies of `topic` once the unit has committed, before the change
   * answers (once per topic and unit). Called by the repo write that changes what is cached.
   */
  invalidate(topic: InvalidationTopic): void;
}

/** Who tells every instance of an invalidation (lib/invalidations.ts). */
export interface Publisher {
  publish(topic: InvalidationTopic): Promise<void>;
}

/** A unit's effects, queued until its commit (made only when there is one: most units have none). */
export class EffectQueue {
  private effects: Effect[] | null = null;
  private topics: Set<InvalidationTopic> | null = null;

  constructor(public publisher: Publisher | null) {}

  get empty(): boolean {
    return this.effects === null;
  }

  afterCommit(effect: Effect): void {
    (this.effects ??= []).push(effect);
  }

  invalidate(topic: InvalidationTopic): void {
    if (this.topics?.has(topic)) return;
    (this.topics ??= new Set()).add(topic);
    this.afterCommit(() => this.publisher!.publish(topic));
  }

  /** Before the commit: an invalidation needs someone to publish it (withTransaction's deps' invalidations). */
  checkPublishable(): void {
    if (this.topics && !this.publisher) {
      throw new Error(`a write invalidating ${[...this.topics].join(', ')} needs a unit of work opened with the invalidations: withTransaction(deps, …)`);
    }
  }

  /** After the commit: each effect in the order registered. */
  async run(): Promise<void> {
    for (const effect of this.effects ?? []) {
      const running = effect();
      if (running) await running;
    }
  }
}

/** The statements of a Kysely transaction `trx` (or database), compiled once on the root database `root`. */
export function kyselyStatements(root: Db, trx: Db): Statements {
  return {
    async first(statement, ...args) {
      const { query, bind } = statement.compiled(root);
      return (await trx.executeQuery({ ...query, parameters: bind(args) })).rows[0] as never;
    },
    async all(statement, ...args) {
      const { query, bind } = statement.compiled(root);
      return (await trx.executeQuery({ ...query, parameters: bind(args) })).rows as never;
    },
    async run(statement, ...args) {
      const { query, bind } = statement.compiled(root);
      return Number((await trx.executeQuery({ ...query, parameters: bind(args) })).numAffectedRows ?? 0);
    },
  };
}

class QueuedUnit implements Unit {
  constructor(
    private readonly statements: Statements,
    private readonly queue: EffectQueue,
  ) {}
  first<A extends Bindable[], R>(statement: PreparedStatement<A, R>, ...args: A): Promise<R | undefined> {
    return this.statements.first(statement, ...args);
  }
  all<A extends Bindable[], R>(statement: PreparedStatement<A, R>, ...args: A): Promise<R[]> {
    return this.statements.all(statement, ...args);
  }
  run<A extends Bindable[]>(statement: PreparedStatement<A, unknown>, ...args: A): Promise<number> {
    return this.statements.run(statement, ...args);
  }
  afterCommit(effect: Effect): void {
    this.queue.afterCommit(effect);
  }
  invalidate(topic: InvalidationTopic): void {
    this.queue.invalidate(topic);
  }
}

/** The unit of a transaction: its statements, and `queue` for its effects. */
export function unitWith(statements: Statements, queue: EffectQueue): Unit {
  return new QueuedUnit(statements, queue);
}

/** The units opened by transaction.ts, by their Kysely transaction. */
const units = new WeakMap<Db, Unit>();

export function registerUnit(trx: Db, unit: Unit): void {
  units.set(trx, unit);
}

/**
 * Outside a unit of work: statements on the database itself, effects at once (there is nothing
 * to wait for), and no invalidation (nobody to publish it: the write must be made in a unit).
 */
function standalone(db: Db): Unit {
  return {
    ...kyselyStatements(db, db),
    afterCommit: (effect) => void effect(),
    invalidate: (topic) => {
      throw new Error(`a write invalidating ${topic} must be made in a unit of work: withTransaction(deps, …)`);
    },
  };
}

const standalones = new WeakMap<Db, Unit>();

/** The unit of work `db` belongs to (a transaction opened by inTransaction or withTransaction), or one outside any. */
export function unitOf(db: Db): Unit {
  if (db.isTransaction) {
    const unit = units.get(db);
    if (unit) return unit;
    throw new Error('a transaction not opened by inTransaction or withTransaction has no unit of work');
  }
  let unit = standalones.get(db);
  if (!unit) standalones.set(db, (unit = standalone(db)));
  return unit;
}

/** The statements of `on`: a unit's own, or those of the unit of work a database belongs to (unitOf). */
export function statementsOf(on: Db | Statements): Statements {
  return 'executeQuery' in on ? unitOf(on) : on;
}
