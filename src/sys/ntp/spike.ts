// Spike detection over the last samples, as upstream's syncer (after systemd-timesyncd) does it: a sample
// whose offset jumps by more than three times the observed jitter is not used to correct the clock.

const CAPACITY = 8;

/** Sample is one measurement, seconds. */
export interface Sample {
  readonly offset: number;
  readonly rtt: number;
}

/** SpikeDetector keeps a ring of samples; each call to isSpike adds one. */
export class SpikeDetector {
  #count = 0;
  #samples: Sample[] = Array.from({ length: CAPACITY }, () => ({ offset: 0, rtt: 0 }));
  #idx = 0;
  #jitter = 0;

  /** jitter is the deviation of the kept offsets from the offset of the lowest-delay sample, seconds. */
  get jitter(): number {
    return this.#jitter;
  }

  isSpike(sample: Sample): boolean {
    this.#count++;
    if (this.#count === 1) return false; // the first answer after start is taken as it is
    const previous = this.#idx;
    this.#idx = (this.#idx + 1) % CAPACITY;
    this.#samples[this.#idx] = sample;

    // the lowest-delay sample is the most trustworthy reference for the others
    let best = previous;
    this.#samples.forEach((s, i) => {
      if (s.rtt !== 0 && s.rtt < this.#samples[best]!.rtt) best = i;
    });
    const jitter = this.#jitter;
    let sum = 0;
    for (const s of this.#samples) sum += (s.offset - this.#samples[best]!.offset) ** 2;
    this.#jitter = Math.sqrt(sum / (CAPACITY - 1));

    if (Math.abs(sample.offset) > sample.rtt) return false; // an offset beyond the delay is real, never a spike
    if (this.#count < 4) return false; // too few samples to judge
    return Math.abs(sample.offset - this.#samples[previous]!.offset) > 3 * jitter;
  }
}
