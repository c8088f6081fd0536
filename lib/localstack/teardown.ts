/** What was started so far, stopped in reverse order; one failing to stop does not keep the rest running. */
export class Teardown {
  private readonly steps: Array<{ what: string; stop: () => unknown }> = [];

  /** `what` is logged as the step runs, e.g. `stopping the git server`. */
  add(what: string, stop: () => unknown): void {
    this.steps.push({ what, stop });
  }

  /** Runs every step once; resolves false when any of them failed. */
  async run(log: (line: string) => void): Promise<boolean> {
    let clean = true;
    for (let step = this.steps.pop(); step; step = this.steps.pop()) {
      log(step.what);
      try {
        await step.stop();
      } catch (e) {
        clean = false;
        log(`failed ${step.what}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return clean;
  }
}
