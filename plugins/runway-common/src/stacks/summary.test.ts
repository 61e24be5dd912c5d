import { configContentsText } from './summary';

describe('configContentsText', () => {
  it('counts providers and resources, singular for one', () => {
    expect(configContentsText({ providerCount: 1, resourceCount: 1 })).toBe(
      '1 provider, 1 resource',
    );
    expect(configContentsText({ providerCount: 2, resourceCount: 0 })).toBe(
      '2 providers, 0 resources',
    );
    expect(configContentsText(undefined)).toBe('0 providers, 0 resources');
  });
});
