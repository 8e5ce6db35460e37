// The shape of one engine module (deploy/engines/<name>.mjs, default export). Documentation only: the CLI
// duck-types it.
//
// {
//   name: 'kafka',                       // folder names under .engines/ and the CLI's argument
//   summary: 'Apache Kafka 3.9, KRaft single node, from Maven Central',
//   endpoints: { KAFKA_BROKERS: '127.0.0.1:9092' },   // the variables the apps read, with the local values
//   readyTimeoutMs: 120_000,
//   stopGraceMs: 30_000,                 // optional; SIGKILL after this
//   async install(ctx) {},               // idempotent, fast when already done; prints progress with ctx.log
//   async launch(ctx) {                  // may prepare ctx.dirs.data first (e.g. format storage once)
//     return { command: 'java', args: [...], env: {...}, cwd: ctx.dirs.data };
//   },
//   async ready(ctx) { return true },    // one quick probe; false while starting
// }
//
// ctx = { dirs: { cache, data, run, logs, pidFile, logFile }, log(line) }. Engines listen on 127.0.0.1 only.
export {};
