import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import '../../i18n/i18n';
import type { Pixels } from '../utils/findPuzzleGap';

// jsdom decodes no images: the pictures' pixels arrive when the test says so, as a slow network would.
const pending: Array<() => void> = [];
const blank = (width: number, height: number): Pixels => ({
  width,
  height,
  data: new Uint8ClampedArray(width * height * 4),
});
vi.mock('../utils/findPuzzleGap', async (original) => ({
  ...(await original<typeof import('../utils/findPuzzleGap')>()),
  loadPixels: (src: string) =>
    new Promise<Pixels>((resolve) => pending.push(() => resolve(src === 'piece' ? blank(50, 50) : blank(300, 150)))),
}));
const { SliderCaptcha } = await import('../components/SliderCaptcha');

afterEach(cleanup);

const puzzle = (captchaId: string) => ({
  captchaId,
  background: 'background',
  piece: 'piece',
  y: 20,
  width: 300,
  height: 150,
  pieceSize: 50,
  expiresIn: 120,
});

describe('"place the piece for me" (keyboard-day flake under load)', () => {
  it('when the puzzle is replaced while its pictures load, then nothing is dropped on the new one', async () => {
    const onDrop = vi.fn();
    const props = { status: 'idle' as const, onDrop, onRefresh: () => undefined };
    const { rerender } = render(<SliderCaptcha puzzle={puzzle('old')} {...props} />);
    fireEvent.click(screen.getByTestId('captcha-place'));
    rerender(<SliderCaptcha puzzle={puzzle('new')} {...props} />);
    await act(async () => pending.splice(0).forEach((resolve) => resolve()));
    expect(onDrop).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('captcha-place'));
    await act(async () => pending.splice(0).forEach((resolve) => resolve()));
    expect(onDrop).toHaveBeenCalledTimes(1);
  });
});
