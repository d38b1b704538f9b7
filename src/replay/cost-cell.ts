/**
 * How a cost is shown when some of its requests ran on a model the price table does not know
 * (core/price-table.ts): never as if the unknown part were free. The figure itself carries the
 * mark, `>=` and the models' names, wherever it is shown (issue 40: no silent zero). Pure.
 */

/** A cost in dollars; `unknown (no price: M)` when nothing was priced, or a floor `>=1.23 (no price: M)` when part was. */
export function costCell(costUsd: number, unknownModels: readonly string[], digits = 2): string {
  if (unknownModels.length === 0) return costUsd.toFixed(digits);
  return `${costUsd === 0 ? 'unknown' : `>=${costUsd.toFixed(digits)}`} ${noPrice(unknownModels)}`;
}

/** The same with a dollar sign: `$1.23`, `unknown (no price: M)`, `>=$1.23 (no price: M)`. */
export function dollarCell(costUsd: number, unknownModels: readonly string[], digits = 2): string {
  return costCell(costUsd, unknownModels, digits).replace(/^(>=)?(\d)/, '$1$$$2');
}

/** `(no price: M, N)`: the mark a figure carries beside its floor. */
export function noPrice(unknownModels: readonly string[]): string {
  return `(no price: ${unknownModels.join(', ')})`;
}

/** The line that names the unknown models, or nothing. */
export function unknownModelsLine(unknownModels: readonly string[]): string | undefined {
  if (unknownModels.length === 0) return undefined;
  return (
    `unknown model${unknownModels.length > 1 ? 's' : ''} ${unknownModels.join(', ')}: not in the price table, left unpriced ` +
    "(costs shown 'unknown', or '>=' where only part was priced, with the model's name); --price-as MODEL prices the session as if it ran on MODEL"
  );
}
