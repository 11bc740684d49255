/** The consent extension's name for the product's one diagnostic builder (src/wire). */
export { diagnostic as diagnose } from '../wire/diagnostic.ts';
