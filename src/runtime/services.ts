/** A registry through which extensions exchange services without importing each other. */
import { deferredMap } from './deferred.ts';

export function createServices() {
  const slot = deferredMap<string, unknown>(new Map());
  return {
    provide: (name: string, value: unknown) => slot(name).resolve(value),
    when: (name: string) => slot(name).promise,
  };
}
