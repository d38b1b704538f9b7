/**
 * How a cost is shown when some of its requests ran on a model the price table does not know
 * (core/price-table.ts): never as if the unknown part were free. Pure.
 */

/** A cost in dollars, or `unknown` when nothing was priced, or a floor (`>=`) when part was. */
export function costCell(costUsd: number, unknownModels: readonly string[], digits = 2): string {
  if (unknownModels.length === 0) return costUsd.toFixed(digits);
  return costUsd === 0 ? 'unknown' : `>=${costUsd.toFixed(digits)}`;
}

/** The same with a dollar sign: `$1.23`, `unknown`, `>=$1.23`. */
export function dollarCell(costUsd: number, unknownModels: readonly string[], digits = 2): string {
  return costCell(costUsd, unknownModels, digits).replace(/^(\d)/, '$$$1');
}

/** The line that names the unknown models, or nothing. */
export function unknownModelsLine(unknownModels: readonly string[]): string | undefined {
  if (unknownModels.length === 0) return undefined;
  return (
    `unknown model${unknownModels.length > 1 ? 's' : ''} ${unknownModels.join(', ')}: not in the price table, left unpriced ` +
    "(costs shown 'unknown', or '>=' where only part was priced); --price-as MODEL prices the session as if it ran on MODEL"
  );
}
