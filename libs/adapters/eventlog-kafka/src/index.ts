export { openKafkaEventLog } from './event-log.js';
export { brokersFrom, type KafkaEventLogOptions } from './options.js';
export { murmur2, partitionFor } from './partitioner.js';
export { mapKafkaError } from './error-map.js';
