import { expect } from 'chai';
import { logLevel } from 'kafkajs';
import type { Logger } from '@memory/platform';
import { bridgedLevel, kafkaLogCreator } from './kafka-logging.js';

describe('kafkajs log bridge', () => {
  it('keeps warnings and errors, and demotes what the caller hears about anyway', () => {
    expect(bridgedLevel(logLevel.ERROR, 'Consumer', 'Crash: KafkaJSNumberOfRetriesExceeded'), 'the adapter reports crashes').to.equal('debug');
    expect(bridgedLevel(logLevel.ERROR, 'Cluster', 'Failed to connect to seed broker')).to.equal('error');
    expect(bridgedLevel(logLevel.WARN, 'ConsumerGroup', 'The group is rebalancing, re-joining')).to.equal('warn');
    expect(bridgedLevel(logLevel.ERROR, 'Connection', 'Response Metadata(key: 3, version: 6)')).to.equal('debug');
    expect(bridgedLevel(logLevel.WARN, 'Producer', 'Limiting retries for the idempotent producer may invalidate EoS guarantees')).to.equal('debug');
    expect(bridgedLevel(logLevel.INFO, 'Consumer', 'Starting')).to.equal('debug');
  });

  it('writes structured lines through our logger, without kafkajs\'s own timestamp', () => {
    const lines: Array<[string, string, Record<string, unknown> | undefined]> = [];
    const record = (level: string) => (msg: string, fields?: Record<string, unknown>) => void lines.push([level, msg, fields]);
    const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error'), child: () => logger };
    const log = kafkaLogCreator(logger)(logLevel.WARN);
    log({ namespace: 'Cluster', level: logLevel.WARN, label: 'WARN', log: { message: 'broker gone', timestamp: 'now', logger: 'kafkajs', broker: 'b:1' } as never });
    expect(lines).to.deep.equal([['warn', 'kafkajs [Cluster] broker gone', { broker: 'b:1' }]]);
  });
});
