export { openKafkaEventLog } from './event-log.js';
export { brokersFrom, type KafkaEventLogOptions } from './options.js';
export { mapKafkaError } from './error-map.js';
export { deleteKafkaPrefix } from './delete-prefix.js';
