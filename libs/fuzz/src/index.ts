export { runFuzz, describeRequest, type FuzzOptions, type FuzzReport, type FuzzFailure } from './run.js';
export { formatReport } from './report.js';
export { routesOf, type Route } from './routes.js';
export { hostileRequest, KIND_NAMES } from './cases.js';
export { send, parseResponse, serialize, type WireRequest, type WireResponse, type WireOutcome } from './http-wire.js';
export { judge, errorCodeOf } from './verdict.js';
