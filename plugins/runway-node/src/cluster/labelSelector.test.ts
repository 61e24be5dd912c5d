import { matchesLabels, parseLabelSelector } from './labelSelector';

describe('label selectors', () => {
  const labels = { app: 'llama', tier: 'gpu', 'example.com/team': 'a' };

  it.each([
    ['app=llama', true],
    ['app==llama', true],
    ['app!=llama', false],
    ['app=llama,tier=cpu', false],
    ['tier in (gpu, cpu)', true],
    ['tier notin (gpu)', false],
    ['example.com/team', true],
    ['!legacy', true],
    ['!app', false],
    ['missing!=x', true],
    ['', true],
  ])('%s matches: %s', (selector, expected) => {
    expect(matchesLabels(parseLabelSelector(selector), labels)).toBe(expected);
  });

  it.each([
    ['app=llama,', /empty term/],
    ['a b c', /is not a selector term/],
    ['tier in ()', /at least one value/],
    ['app=has space', /is not a selector term/],
    ['-bad=x', /is not a label key/],
  ])('rejects %s', (selector, message) => {
    expect(() => parseLabelSelector(selector)).toThrow(message);
  });
});
