/**
 * Input normalisation (docs/api.md, "POST /v1/iban/validate"): IBANs are pasted from invoices, so
 * separators are dropped and lower case is folded, but nothing else is guessed at.
 * Characters that are neither separators nor ASCII letters and digits are kept, so
 * that the validator can report them as `invalid_characters`.
 */

/** True if every character is A-Z or 0-9 and there is no `IBAN` prefix: nothing to rewrite. */
function isElectronicForm(input: string): boolean {
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c < 48 || (c > 57 && c < 65) || c > 90) return false;
  }
  return !input.startsWith('IBAN');
}

/**
 * White space of every kind (what `\s` matches, no-break spaces included), hyphen-minus,
 * the dashes U+2010-U+2015, minus sign U+2212, dot and slash.
 */
function isSeparator(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13) || c === 45 || c === 46 || c === 47;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    (c >= 0x2010 && c <= 0x2015) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x2212 ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

export function normalizeIban(input: string): string {
  if (isElectronicForm(input)) return input;
  let out = '';
  let runStart = 0;
  let ascii = true;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (isSeparator(c)) {
      if (runStart < i) out += input.slice(runStart, i);
      runStart = i + 1;
    } else if (c > 127) ascii = false;
  }
  out += input.slice(runStart);
  // Unicode upper-casing would turn some non-ASCII characters (ß, ı, ſ) into ASCII letters.
  out = ascii ? out.toUpperCase() : out.replace(/[a-z]+/g, (s) => s.toUpperCase());
  if (out.startsWith('IBAN:')) return out.slice(5);
  if (out.startsWith('IBAN')) return out.slice(4);
  return out;
}
