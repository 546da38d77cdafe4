/** The project's own constant names (tiers) as a SQL list of string literals: constants only, never input. */
export const sqlList = (values: readonly string[]): string => `(${values.map((v) => `'${v}'`).join(', ')})`;
