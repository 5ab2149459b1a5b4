/** A minimal typed event emitter (no dependency on Node's or the DOM's). */
export class Emitter<Events extends Record<string, unknown>> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  on<Name extends keyof Events>(name: Name, listener: (payload: Events[Name]) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  emit<Name extends keyof Events>(name: Name, payload: Events[Name]): void {
    for (const listener of [...(this.listeners.get(name) ?? [])]) {
      try {
        (listener as (payload: Events[Name]) => void)(payload);
      } catch (error) {
        // A listener's bug must not stop the others or the client.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
