/** `v0/page-auto-ads-experiment.<hash>.js`: the experiment, for a config with an `experiment` only. */
import { definePart } from '../../browser-shared/parts.ts';
import { assignExperiment, type ExperimentPart } from '../experiment.ts';

definePart('page-auto-ads-experiment', { assign: assignExperiment } satisfies ExperimentPart);
