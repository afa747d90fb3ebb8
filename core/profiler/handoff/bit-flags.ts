/**
 * One bit per name, in the order given (1, 2, 4, ...): a hand-off record writes which of its optional
 * fields follow as one number, and reads them back by the same names.
 */
export function bitFlags<const Names extends readonly string[]>(
  ...names: Names
): Readonly<Record<Names[number], number>> {
  const flags = {} as Record<Names[number], number>;
  for (let i = 0; i < names.length; i++) flags[names[i] as Names[number]] = 1 << i;
  return Object.freeze(flags);
}
