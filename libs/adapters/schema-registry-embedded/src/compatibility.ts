import type avro from 'avsc';

/** Confluent's compatibility levels, checked against the latest version of a subject (not the transitive ones). */
export type CompatibilityLevel = 'BACKWARD' | 'FORWARD' | 'FULL' | 'NONE';

export const COMPATIBILITY_LEVELS: readonly CompatibilityLevel[] = ['BACKWARD', 'FORWARD', 'FULL', 'NONE'];

/**
 * Why `next` may not follow `latest` under `level`, or undefined when it may. BACKWARD: readers on the new schema
 * can read data written with the latest one (the order consumers upgrade in); FORWARD: the other way round.
 */
export function incompatibility(level: CompatibilityLevel, latest: avro.Type, next: avro.Type): string | undefined {
  const problems: string[] = [];
  if (level === 'BACKWARD' || level === 'FULL') {
    const why = cannotRead(next, latest);
    if (why) problems.push(`the new schema cannot read data written with the latest one: ${why}`);
  }
  if (level === 'FORWARD' || level === 'FULL') {
    const why = cannotRead(latest, next);
    if (why) problems.push(`the latest schema cannot read data written with the new one: ${why}`);
  }
  return problems.length ? problems.join('; ') : undefined;
}

function cannotRead(reader: avro.Type, writer: avro.Type): string | undefined {
  try {
    reader.createResolver(writer);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
