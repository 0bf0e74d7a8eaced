import { Base, mixin } from "./base.js";
import Logger from "./logger.js";

/**
 * A queue of jobs run by a pool of workers.
 */
export class JobQueue extends Base {
  static instances = 0;
  #pending = [];

  /** Handle a finished job. */
  onDone = (job) => {
    this.emit("done", job);
    this.#next();
  };

  constructor(concurrency = 4) {
    super();
    this.concurrency = concurrency;
    this.logger = new Logger("queue");
    JobQueue.instances += 1;
  }

  /** Add a job; returns its id. */
  push(job) {
    this.#pending.push(job);
    return this.#next();
  }

  get size() {
    return this.#pending.length;
  }

  async *drain() {
    while (this.size) {
      yield await this.#run(this.#pending.shift());
    }
  }

  #next() {
    const job = this.#pending[0];
    return job ? this.#run(job) : null;
  }

  async #run(job) {
    this.logger.info("run", job.id);
    return job.fn();
  }

  static create(options) {
    return new JobQueue(options.concurrency);
  }
}

class PriorityQueue extends mixin(JobQueue) {
  push(job, priority = 0) {
    job.priority = priority;
    return super.push(job);
  }

  /** Items ordered for display. */
  static Entry = class {
    constructor(job) {
      this.job = job;
    }
  };
}

@sealed
class Registry extends models.Model {
  @observable items = [];

  @action("register")
  register(name, factory) {
    this.items.push({ name, factory });
  }
}

// Legacy prototype-style class.
function Timer(interval) {
  this.interval = interval;
  this.tick = () => this.interval;
}

/** Start the timer. */
Timer.prototype.start = function () {
  this.handle = setInterval(this.tick, this.interval);
};

Timer.prototype.stop = function () {
  clearInterval(this.handle);
};

export const registry = new Registry();
export { PriorityQueue, Timer };
