/** The benchmarks' settings from the environment. */

/** A positive whole number from the environment, or a clear error naming the variable. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(
      `${name}=${JSON.stringify(
        raw,
      )} is not a whole number >= 1: set e.g. ${name}=${fallback}`,
    );
  }
  return value;
}
