/** Table layout checks for e2e: no cell's content runs over its neighbour, and a table's scrolling box stays inside the window. */
import { expect, type Locator } from '@playwright/test';

/** One fault found in a table: where (row, column) and what (the boxes' edges in CSS px). */
export interface TableFault {
  row: number;
  col: number;
  fault: string;
}

/**
 * Every fault of the table `table` (a `<table>` inside a scrolling box): a cell whose text extends
 * past its own box (1 px slack for rounding), a cell whose box intersects the next cell's in its row,
 * and the scrolling box (the table's parent) reaching past the window's right edge. Empty = none.
 */
export async function tableFaults(table: Locator): Promise<TableFault[]> {
  return table.evaluate((t) => {
    const faults: { row: number; col: number; fault: string }[] = [];
    const box = t.parentElement!.getBoundingClientRect();
    if (box.right > window.innerWidth + 1 || box.left < -1) faults.push({ row: -1, col: -1, fault: `scrolling box ${box.left}–${box.right} outside the window 0–${window.innerWidth}` });
    [...t.querySelectorAll('tr')].forEach((tr, row) => {
      const cells = [...tr.children] as HTMLElement[];
      cells.forEach((cell, col) => {
        const r = cell.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(cell);
        const text = range.getBoundingClientRect();
        if (text.width > 0 && (text.right > r.right + 1 || text.left < r.left - 1)) faults.push({ row, col, fault: `text ${text.left}–${text.right} outside its cell ${r.left}–${r.right}` });
        const next = cells[col + 1]?.getBoundingClientRect();
        if (next && r.right > next.left + 1) faults.push({ row, col, fault: `cell ends at ${r.right}, the next starts at ${next.left}` });
      });
    });
    return faults;
  });
}

/** Asserts the table has no fault (tableFaults) and the page is no wider than the window. */
export async function expectTableInside(table: Locator): Promise<void> {
  expect(await tableFaults(table)).toEqual([]);
  expect(await table.page().evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}
