import { describe, expect, it } from 'vitest';
import { evaluateExpression, isExpression, S, type ExpressionContext } from './index.js';

const variables: Record<string, unknown> = {
  amount: 1500,
  name: 'Invoice',
  approved: true,
  nothing: null,
  items: [1, 2, 3],
  customer: { address: { city: 'Berlin' } },
  loan: JSON.stringify({ amount: 2000, tags: ['a', 'b'] }),
  execution: { getProcessInstanceId: () => 'pi-1', getVariable: (n: string) => (n === 'amount' ? 1500 : null) },
};

const context: ExpressionContext = {
  has: (name) => name in variables || name === 'S',
  resolve: (name) => (name === 'S' ? undefined : variables[name]),
};

const evaluate = (text: string) => evaluateExpression(text, {
  has: context.has,
  resolve: (name) => (name === 'S' ? S : context.resolve(name)),
});

describe('evaluateExpression', () => {
  it.each([
    ['${amount > 1000}', true],
    ['${amount gt 2000}', false],
    ['${amount + 500 * 2}', 2500],
    ['${(amount + 500) / 4}', 500],
    ['${amount mod 7}', 2],
    ['${approved && amount >= 1500}', true],
    ['${not approved or amount lt 0}', false],
    ['${name == "Invoice"}', true],
    ["${name eq 'Order'}", false],
    ['${nothing == null}', true],
    ['${empty nothing}', true],
    ['${empty items}', false],
    ['${items[1]}', 2],
    ["${customer.address['city']}", 'Berlin'],
    ['${approved ? "yes" : "no"}', 'yes'],
    ['${-amount}', -1500],
    ['${name.toUpperCase()}', 'INVOICE'],
    ["${name.startsWith('Inv')}", true],
    ['${execution.processInstanceId}', 'pi-1'],
    ["${execution.getVariable('amount')}", 1500],
    ['${S(loan).prop("amount").numberValue() > 1000}', true],
    ['${S(loan).prop("tags").elements()[1].stringValue()}', 'b'],
    // Java List and Map methods on lists and maps.
    ['${items.size() == 3 && items.contains(2) && !items.isEmpty()}', true],
    ['${items.get(0)}', 1],
    ["${customer.containsKey('address') && customer.get('address').size() == 1}", true],
    ['plain text', 'plain text'],
    ['Dear ${name}, total ${amount}', 'Dear Invoice, total 1500'],
  ])('%s → %o', (text, expected) => {
    expect(evaluate(text)).toEqual(expected);
  });

  it("names the expression and the identifier it cannot resolve, in Camunda's words", () => {
    expect(() => evaluate('${missing > 1}')).toThrow("Unknown property used in expression: ${missing > 1}. Cause: Cannot resolve identifier 'missing'");
  });

  it('reports a syntax error with the expression', () => {
    expect(() => evaluate('${amount >}')).toThrow(/Error parsing '\$\{amount >\}'/);
  });

  it('tells expressions from plain text', () => {
    expect(isExpression('#{a}')).toBe(true);
    expect(isExpression('a')).toBe(false);
  });
});
