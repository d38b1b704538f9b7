import fc from 'fast-check';

// CI runs are reproducible: FC_SEED pins the seed, FC_RUNS raises the count for a longer local run.
const seed = process.env['FC_SEED'];
const runs = process.env['FC_RUNS'];
fc.configureGlobal({
  ...(seed === undefined ? {} : { seed: Number(seed) }),
  numRuns: runs === undefined ? 200 : Number(runs),
});
