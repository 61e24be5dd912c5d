import { visibleRange } from './windowing';

describe('visibleRange', () => {
  it('renders a screenful plus the overscan', () => {
    expect(
      visibleRange({
        count: 5000,
        rowHeight: 40,
        scrollTop: 0,
        viewportHeight: 400,
      }),
    ).toEqual({
      start: 0,
      end: 21,
      offsetTop: 0,
      totalHeight: 200000,
    });
    expect(
      visibleRange({
        count: 5000,
        rowHeight: 40,
        scrollTop: 4000,
        viewportHeight: 400,
        overscan: 5,
      }),
    ).toEqual({
      start: 95,
      end: 116,
      offsetTop: 3800,
      totalHeight: 200000,
    });
  });

  it('stays inside the list', () => {
    expect(
      visibleRange({
        count: 3,
        rowHeight: 40,
        scrollTop: 99999,
        viewportHeight: 400,
      }),
    ).toMatchObject({ start: 0, end: 3 });
    expect(
      visibleRange({
        count: 0,
        rowHeight: 40,
        scrollTop: 0,
        viewportHeight: 400,
      }),
    ).toMatchObject({ start: 0, end: 0 });
  });
});
