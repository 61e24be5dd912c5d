import { compareQuantities, isQuantity, parseQuantity } from './quantity';

describe('parseQuantity', () => {
  it.each([
    [4, 4],
    ['4', 4],
    ['500m', 0.5],
    ['1k', 1000],
    ['16Gi', 16 * 2 ** 30],
    ['4Ti', 4 * 2 ** 40],
    ['1.5Gi', 1.5 * 2 ** 30],
    ['1e3', 1000],
    ['2E2', 200],
    ['+3', 3],
    ['.5', 0.5],
    ['100n', 100e-9],
  ])('%p is %p', (input, expected) => {
    expect(parseQuantity(input)).toBeCloseTo(expected);
  });

  it.each(['16GB', 'abc', '', '1.2.3', '5 Gi', 'Gi', null, {}, Number.NaN])(
    '%p is not a quantity',
    input => {
      expect(parseQuantity(input)).toBeUndefined();
      expect(isQuantity(input)).toBe(false);
    },
  );
});

describe('compareQuantities', () => {
  it.each([
    ['1Gi', '1073741824', 0],
    ['1Gi', '1G', 1],
    ['512', '513', -1],
    ['4Ti', '4096Gi', 0],
    ['500m', 1, -1],
  ])('%p vs %p is %p', (a, b, sign) => {
    expect(Math.sign(compareQuantities(a, b))).toBe(sign);
  });

  it('throws on a value that is not a quantity', () => {
    expect(() => compareQuantities('lots', '1')).toThrow(
      '"lots" is not a Kubernetes quantity',
    );
  });
});
