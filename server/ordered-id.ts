/**
 * The time prefix of the ids the server makes up (user ids, receipt ids): the current time in
 * milliseconds as 12 hex digits, so ids sort by creation time. Rows keyed by ids made close
 * together then land on the same few index pages instead of one random page per index: a batch
 * of first-visit updates dirties a handful of pages, not hundreds (docs/decisions/server-throughput.md).
 * The random part that follows keeps each id unguessable; the prefix only tells when it was made,
 * which the record beside it says anyway.
 */
export const timePrefix = (): string => Date.now().toString(16).padStart(12, '0');
