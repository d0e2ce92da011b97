/** The heatmap colour scale: positions, the viridis ramp, contrast of the text, the table domain. */
import { describe, expect, it } from 'vitest';
import { domainOf, heatColour, luminance, RAMP_GRADIENT, rampAt, scalePosition, wAucDomain } from './heatmap.ts';

describe('heatmap colour scale', () => {
  it('maps values onto [0, 1] within the domain, clamped; an empty domain is the top', () => {
    expect(scalePosition(0.25, 0, 0.5)).toBe(0.5);
    expect(scalePosition(-1, 0, 1)).toBe(0);
    expect(scalePosition(2, 0, 1)).toBe(1);
    expect(scalePosition(0.3, 0.3, 0.3)).toBe(1);
  });

  it('follows the viridis stops and interpolates linearly between them', () => {
    expect(rampAt(0)).toEqual([68, 1, 84]);
    expect(rampAt(0.5)).toEqual([33, 145, 140]);
    expect(rampAt(1)).toEqual([253, 231, 37]);
    // Halfway between the 0.75 stop (94, 201, 98) and the 1 stop (253, 231, 37).
    expect(rampAt(0.875)).toEqual([174, 216, 68]);
  });

  it('writes white on the dark end and black on the light end; a missing value has no colour', () => {
    expect(heatColour(0, 0, 1)).toEqual({ background: 'rgb(68 1 84)', color: '#fff', t: 0 });
    expect(heatColour(1, 0, 1)).toEqual({ background: 'rgb(253 231 37)', color: '#000', t: 1 });
    expect(heatColour(null, 0, 1)).toEqual({ background: 'transparent', color: 'inherit', t: null });
    expect(heatColour(Number.NaN, 0, 1).t).toBeNull();
    expect(luminance([255, 255, 255])).toBeCloseTo(1, 10);
    expect(luminance([0, 0, 0])).toBe(0);
  });

  it('takes the domain from the finite values of the table', () => {
    expect(domainOf([0.2, undefined, 0.05, null, Number.NaN, 0.4])).toEqual({ min: 0.05, max: 0.4 });
    expect(domainOf([])).toEqual({ min: 0, max: 1 });
  });

  it('a W-AUC table is scaled from 0: a table of zeros is dark (the low end), not the bright best', () => {
    const zeros = wAucDomain([0, 0, null]);
    expect(zeros).toEqual({ min: 0, max: 1 });
    expect(heatColour(0, zeros.min, zeros.max)).toEqual({ background: 'rgb(68 1 84)', color: '#fff', t: 0 });
    const some = wAucDomain([0, 0.2, 0.4]);
    expect(some).toEqual({ min: 0, max: 0.4 });
    expect(heatColour(0, some.min, some.max).t).toBe(0);
    expect(heatColour(0.4, some.min, some.max).background).toBe('rgb(253 231 37)');
    expect(wAucDomain([0.1, 0.3])).toEqual({ min: 0, max: 0.3 });
    expect(RAMP_GRADIENT).toBe('linear-gradient(to right, rgb(68 1 84) 0%, rgb(59 82 139) 25%, rgb(33 145 140) 50%, rgb(94 201 98) 75%, rgb(253 231 37) 100%)');
  });
});
