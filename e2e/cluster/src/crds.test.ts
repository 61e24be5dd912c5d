import { crdReadiness } from './crds';

describe('crdReadiness', () => {
  it('is ready when Established is True', () => {
    expect(
      crdReadiness({
        spec: {} as any,
        status: {
          conditions: [{ type: 'Established', status: 'True' } as any],
        } as any,
      }),
    ).toEqual({ ready: true });
    expect(crdReadiness({ spec: {} as any })).toEqual({ ready: false });
  });

  it('reports a name conflict', () => {
    const result = crdReadiness({
      spec: {} as any,
      status: {
        conditions: [
          {
            type: 'NamesAccepted',
            status: 'False',
            reason: 'ListKindConflict',
            message: 'taken',
          } as any,
        ],
      } as any,
    });
    expect(result).toEqual({
      ready: false,
      problem: 'NamesAccepted=False: ListKindConflict: taken',
    });
  });
});
