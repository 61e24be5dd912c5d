import { storageClassSummaries } from './storageClasses';

describe('storageClassSummaries', () => {
  it('puts the default class first, then sorts by name', () => {
    expect(
      storageClassSummaries([
        { metadata: { name: 'slow' }, provisioner: 'a' } as any,
        {
          metadata: {
            name: 'standard',
            annotations: {
              'storageclass.kubernetes.io/is-default-class': 'true',
            },
          },
          provisioner: 'rancher.io/local-path',
        } as any,
        { metadata: { name: 'fast' }, provisioner: 'b' } as any,
        { metadata: {} } as any,
      ]),
    ).toEqual([
      {
        name: 'standard',
        provisioner: 'rancher.io/local-path',
        isDefault: true,
      },
      { name: 'fast', provisioner: 'b', isDefault: false },
      { name: 'slow', provisioner: 'a', isDefault: false },
    ]);
  });
});
