import { tokenize, type Token } from './lexer.js';

/** The syntax tree of one JUEL expression. */
export type Node =
  | { kind: 'literal'; value: unknown }
  | { kind: 'identifier'; name: string }
  | { kind: 'member'; object: Node; property: Node }
  | { kind: 'call'; object: Node; method: string; args: Node[] }
  | { kind: 'function'; name: string; args: Node[] }
  | { kind: 'unary'; operator: string; operand: Node }
  | { kind: 'binary'; operator: string; left: Node; right: Node }
  | { kind: 'conditional'; test: Node; then: Node; otherwise: Node };

// JUEL precedence, lowest first; keyword forms are aliases of the symbols.
const LEVELS: string[][] = [['||', 'or'], ['&&', 'and'], ['==', '!=', 'eq', 'ne'], ['<', '>', '<=', '>=', 'lt', 'gt', 'le', 'ge'], ['+', '-'], ['*', '/', '%', 'div', 'mod']];
const LITERALS: Record<string, unknown> = { true: true, false: false, null: null };

/** Parses the inside of one `${…}`. Throws with the position on a syntax error. */
export function parse(source: string): Node {
  const tokens = tokenize(source);
  let position = 0;
  const peek = (): Token => tokens[position];
  const isOperator = (value: string) => peek().kind === 'operator' && (peek() as { value: string }).value === value;
  const expect = (value: string) => {
    if (!isOperator(value)) throw new Error(`expected '${value}' at token ${position + 1}`);
    position++;
  };

  const conditional = (): Node => {
    const test = binary(0);
    if (!isOperator('?')) return test;
    position++;
    const then = conditional();
    expect(':');
    return { kind: 'conditional', test, then, otherwise: conditional() };
  };

  const binary = (level: number): Node => {
    if (level === LEVELS.length) return unary();
    let left = binary(level + 1);
    for (;;) {
      const token = peek();
      if (token.kind !== 'operator' || !LEVELS[level].includes(token.value)) return left;
      position++;
      left = { kind: 'binary', operator: token.value, left, right: binary(level + 1) };
    }
  };

  const unary = (): Node => {
    for (const operator of ['!', 'not', '-', 'empty']) {
      if (isOperator(operator)) {
        position++;
        return { kind: 'unary', operator, operand: unary() };
      }
    }
    return postfix(primary());
  };

  const args = (): Node[] => {
    const list: Node[] = [];
    expect('(');
    while (!isOperator(')')) {
      list.push(conditional());
      if (!isOperator(')')) expect(',');
    }
    position++;
    return list;
  };

  const postfix = (node: Node): Node => {
    for (;;) {
      if (isOperator('.')) {
        position++;
        const name = peek();
        if (name.kind !== 'identifier' && name.kind !== 'operator') throw new Error(`expected a property name at token ${position + 1}`);
        position++;
        const property = String((name as { value: string }).value);
        node = isOperator('(') ? { kind: 'call', object: node, method: property, args: args() } : { kind: 'member', object: node, property: { kind: 'literal', value: property } };
      } else if (isOperator('[')) {
        position++;
        const property = conditional();
        expect(']');
        node = { kind: 'member', object: node, property };
      } else {
        return node;
      }
    }
  };

  const primary = (): Node => {
    const token = peek();
    position++;
    if (token.kind === 'number' || token.kind === 'string') return { kind: 'literal', value: token.value };
    if (token.kind === 'identifier') {
      if (token.value in LITERALS) return { kind: 'literal', value: LITERALS[token.value] };
      if (isOperator('(')) return { kind: 'function', name: token.value, args: args() };
      return { kind: 'identifier', name: token.value };
    }
    if (token.kind === 'operator' && token.value === '(') {
      const inner = conditional();
      expect(')');
      return inner;
    }
    throw new Error(`unexpected ${token.kind === 'end' ? 'end of expression' : `'${(token as { value: unknown }).value}'`}`);
  };

  const tree = conditional();
  if (peek().kind !== 'end') throw new Error(`unexpected '${(peek() as { value: unknown }).value}' at token ${position + 1}`);
  return tree;
}
