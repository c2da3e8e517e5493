import { resolve } from 'node:path';
import { projectRoot } from '../src/project-paths.js';

/** The bench seed (bench/seed.json): a forwarder that publishes, a border agency its policy covers. */
export const BENCH_SEED = resolve(projectRoot, 'bench', 'seed.json');

export const BENCH_USERS = {
  forwarder: { email: 'ops@forwarder.bench.example', password: 'bench-forwarder-pass', org: 'did:web:forwarder.bench.example' },
  border: { email: 'officer@border.bench.example', password: 'bench-border-pass', org: 'did:web:border.bench.example' },
} as const;
