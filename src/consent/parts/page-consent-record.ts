/**
 * `v0/page-consent-record.<hash>.js`: the return record's writer (docs/decisions/consent-return-record.md),
 * loaded by the state part at idle when the record needs an entry written.
 */
import { definePart } from '../../browser-shared/parts.ts';
import { writeReturnRecord } from '../return-record.ts';

definePart('page-consent-record', { writeReturnRecord });
