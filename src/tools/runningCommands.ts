// The commands run_command has started and that are still running, so they can all be stopped when the
// extension goes away. Each command runs in its own process group (see commandRunner), which nothing else
// would end: without this, a `npm run watch` the model started would outlive the editor window.

export class RunningCommands {
  private readonly stops = new Map<number, () => void>();
  private readonly onExit = (): void => this.stopAll();
  private exitHookInstalled = false;

  /** Registers a running command; `stop` must kill it synchronously. Returns the function that unregisters it. */
  add(id: number, stop: () => void): () => void {
    this.stops.set(id, stop);
    if (!this.exitHookInstalled) {
      // If the host process exits without disposing us, its 'exit' handlers still run, and kill() is synchronous.
      process.once("exit", this.onExit);
      this.exitHookInstalled = true;
    }
    return () => {
      this.stops.delete(id);
    };
  }

  get count(): number {
    return this.stops.size;
  }

  stopAll(): void {
    const stops = [...this.stops.values()];
    this.stops.clear();
    for (const stop of stops) stop();
  }

  dispose(): void {
    this.stopAll();
    if (this.exitHookInstalled) process.removeListener("exit", this.onExit);
    this.exitHookInstalled = false;
  }
}
