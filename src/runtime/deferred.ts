/** A promise together with its resolve function. */
export type Deferred<T> = { readonly promise: Promise<T>; readonly resolve: (value: T) => void };

export function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Deferreds created on first use per key (a service name, an element). */
export function deferredMap<K, T>(map: Map<K, Deferred<T>> | WeakMap<K & object, Deferred<T>>) {
  return (key: K): Deferred<T> => {
    const table = map as Map<K, Deferred<T>>;
    let entry = table.get(key);
    if (!entry) table.set(key, (entry = deferred<T>()));
    return entry;
  };
}
