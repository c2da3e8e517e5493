import { once } from 'node:events';
import { ConfigError, readConfig } from './config.js';
import { createLogger } from './logger.js';
import { createNode } from './node.js';
import { SeedError } from './registry/seed.js';

async function main(): Promise<void> {
  const logger = createLogger();
  let node;
  let config;
  try {
    config = readConfig();
    node = await createNode(config, logger);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof SeedError) {
      logger.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const server = node.app.listen(config.port, config.host);
  await once(server, 'listening');
  logger.info('listening', { url: `http://${config.host}:${config.port}`, baseUrl: config.baseUrl, dataDir: config.dataDir });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    server.close();
    server.closeIdleConnections();
    await once(server, 'close');
    await node.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

void main();
