import { ConfigError } from '../../core/config-values.js';
import { textFrom } from '../../core/settings/read.js';

/** Operations settings: who may read /metrics. */
export interface OpsConfig {
  /** Bearer token for GET /metrics; undefined turns the metrics endpoint off (404). */
  metricsToken: string | undefined;
}

export function readOpsConfig(env: NodeJS.ProcessEnv): OpsConfig {
  const token = textFrom(env, 'DATASPACE_METRICS_TOKEN') || undefined;
  // A short token is guessable by a scraper-shaped brute force; 16 characters is the floor.
  if (token !== undefined && (token.length < 16 || /\s/.test(token))) {
    throw new ConfigError('DATASPACE_METRICS_TOKEN must be at least 16 characters without spaces');
  }
  return { metricsToken: token };
}
