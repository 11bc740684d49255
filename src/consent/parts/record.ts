/**
 * `v0/page-consent-record-0.1.js`: the return record's writer (docs/decisions/consent-return-record.md),
 * loaded by the state part at idle when the record needs an entry written.
 */
import { definePart } from '../../browser-shared/parts.ts';
import { writeReturnRecord } from '../return-record.ts';

definePart('page-consent-record-0.1', { writeReturnRecord });
