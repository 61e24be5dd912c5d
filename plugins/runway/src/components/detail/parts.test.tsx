import { render, screen, act } from '@testing-library/react';
import { AgeFact } from './parts';

describe('AgeFact', () => {
  afterEach(() => jest.useRealTimers());

  it('moves while the page stays open on a resource just created', () => {
    jest.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') });
    render(
      <AgeFact
        object={{ metadata: { creationTimestamp: '2026-01-01T00:00:00Z' } }}
      />,
    );
    expect(screen.getByText('0s')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1_000));
    expect(screen.getByText('1s')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(9_000));
    expect(screen.getByText('10s')).toBeInTheDocument();
  });
});
