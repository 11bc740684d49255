/** A registry through which extensions exchange services without importing each other. */
export function createServices() {
  const values = new Map<string, { promise: Promise<unknown>; resolve: (value: unknown) => void }>();
  const slot = (name: string) => {
    let entry = values.get(name);
    if (!entry) {
      let resolve: (value: unknown) => void = () => {};
      const promise = new Promise<unknown>((done) => (resolve = done));
      values.set(name, (entry = { promise, resolve }));
    }
    return entry;
  };
  return {
    provide: (name: string, value: unknown) => slot(name).resolve(value),
    when: (name: string) => slot(name).promise,
  };
}
