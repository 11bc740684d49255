/** The auto-ads extension uses the product's one diagnostic builder (src/wire). */
export { diagnostic } from '../wire/diagnostic.ts';
