/** A token of the JUEL expression language. */
export type Token =
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'identifier'; value: string }
  | { kind: 'operator'; value: string }
  | { kind: 'end' };

const KEYWORD_OPERATORS = new Set(['and', 'or', 'not', 'eq', 'ne', 'lt', 'gt', 'le', 'ge', 'div', 'mod', 'empty']);
const SYMBOLS = ['==', '!=', '<=', '>=', '&&', '||', '+', '-', '*', '/', '%', '<', '>', '!', '?', ':', '.', ',', '(', ')', '[', ']'];

/** Splits the inside of one `${…}` into tokens; keyword operators (and, eq, empty…) become operators. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source[i];
    if (/\s/.test(char)) {
      i++;
    } else if (/[0-9]/.test(char)) {
      const match = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(source.slice(i))!;
      tokens.push({ kind: 'number', value: Number(match[0]) });
      i += match[0].length;
    } else if (char === "'" || char === '"') {
      let value = '';
      let j = i + 1;
      while (j < source.length && source[j] !== char) {
        if (source[j] === '\\' && j + 1 < source.length) j++;
        value += source[j++];
      }
      if (j >= source.length) throw new Error(`unterminated string literal at position ${i}`);
      tokens.push({ kind: 'string', value });
      i = j + 1;
    } else if (/[A-Za-z_$]/.test(char)) {
      const word = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(source.slice(i))![0];
      tokens.push(KEYWORD_OPERATORS.has(word) ? { kind: 'operator', value: word } : { kind: 'identifier', value: word });
      i += word.length;
    } else {
      const symbol = SYMBOLS.find((candidate) => source.startsWith(candidate, i));
      if (!symbol) throw new Error(`unexpected character '${char}' at position ${i}`);
      tokens.push({ kind: 'operator', value: symbol });
      i += symbol.length;
    }
  }
  tokens.push({ kind: 'end' });
  return tokens;
}
