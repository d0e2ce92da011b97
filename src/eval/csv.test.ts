import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.ts';

describe('toCsv', () => {
  it('writes a header and rows, numbers and booleans as they are, empty for null', () => {
    expect(toCsv({ header: ['policy', 'wauc', 'best'], rows: [['static', 0.25, false], ['memory', -0.125, true], ['naive', null, undefined]] }))
      .toBe('policy,wauc,best\nstatic,0.25,false\nmemory,-0.125,true\nnaive,,\n');
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(toCsv({ header: ['a', 'b', 'c'], rows: [['x, y', 'say "hi"', 'two\nlines']] }))
      .toBe('a,b,c\n"x, y","say ""hi""","two\nlines"\n');
  });

  it('defuses text that a spreadsheet would run as a formula (OWASP), in any cell', () => {
    const csv = toCsv({ header: ['reason'], rows: [['=HYPERLINK("http://x","click")'], ['+1'], ['-2+3'], ['@SUM(A1)'], ['\tx'], ['=1\n=2'], ['a=b']] });
    expect(csv.split('\n').slice(1, 6)).toEqual(['"\'=HYPERLINK(""http://x"",""click"")"', '"\'+1"', '"\'-2+3"', '"\'@SUM(A1)"', '"\'\tx"']);
    expect(csv).toContain('"\'=1\n=2"\n');
    expect(csv.endsWith('a=b\n')).toBe(true);
  });

  it('writes just the header for no rows', () => {
    expect(toCsv({ header: ['id', 'status'], rows: [] })).toBe('id,status\n');
  });

  it('refuses a row whose length differs from the header', () => {
    expect(() => toCsv({ header: ['a', 'b'], rows: [['1']] })).toThrow('CSV row 1 has 1 cells, the header 2.');
  });
});
