import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import '../../i18n/i18n';
import { SliderCaptcha } from '../components/SliderCaptcha';
import { findPuzzleGap, type Pixels } from '../utils/findPuzzleGap';

afterEach(cleanup);

const puzzle = {
  captchaId: 'p1',
  background: 'data:,',
  piece: 'data:,',
  y: 20,
  width: 300,
  height: 150,
  pieceSize: 50,
  expiresIn: 120,
};

describe('slider captcha with the keyboard (issue 16)', () => {
  it('when the handle has the focus, then arrows, Shift, Home and End move the piece and Enter drops it', () => {
    const onDrop = vi.fn();
    render(<SliderCaptcha puzzle={puzzle} status="idle" onDrop={onDrop} onRefresh={() => undefined} />);
    const handle = screen.getByRole('slider');
    expect(handle.getAttribute('tabindex')).toBe('0');
    expect(handle.getAttribute('aria-label')).toBe('Puzzle piece position');
    expect(document.getElementById(handle.getAttribute('aria-describedby')!)?.textContent).toContain('arrow keys');
    const now = () => Number(handle.getAttribute('aria-valuenow'));
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(now()).toBe(2);
    fireEvent.keyDown(handle, { key: 'ArrowRight', shiftKey: true });
    expect(now()).toBe(22);
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    expect(now()).toBe(20);
    fireEvent.keyDown(handle, { key: 'End' });
    expect(now()).toBe(260);
    fireEvent.keyDown(handle, { key: 'PageDown' });
    expect(now()).toBe(240);
    fireEvent.keyDown(handle, { key: 'Home' });
    expect(now()).toBe(0);
    fireEvent.keyDown(handle, { key: 'PageUp' });
    fireEvent.keyDown(handle, { key: 'Enter' });
    expect(onDrop).toHaveBeenCalledWith(20);
  });

  it('when the puzzle is passed, then the handle leaves the tab order and keys do nothing', () => {
    const onDrop = vi.fn();
    render(<SliderCaptcha puzzle={puzzle} status="passed" onDrop={onDrop} onRefresh={() => undefined} />);
    const handle = screen.getByRole('slider');
    expect(handle.getAttribute('tabindex')).toBe('-1');
    fireEvent.keyDown(handle, { key: 'Enter' });
    expect(onDrop).not.toHaveBeenCalled();
    expect(screen.queryByTestId('captcha-place')).toBeNull();
  });
});

describe("the gap finder (the captcha's accessible alternative)", () => {
  it("when the picture has the piece darkened into it, then the piece's left edge there is found", () => {
    const width = 300;
    const height = 150;
    const size = 50;
    const gapX = 143;
    const y = 40;
    const colour = (x: number, yy: number, c: number) => (x * 7 + yy * 13 + c * 61 + ((x * yy) % 97)) % 256;
    const picture: Pixels = { width, height, data: new Uint8ClampedArray(width * height * 4) };
    for (let yy = 0; yy < height; yy++)
      for (let x = 0; x < width; x++)
        for (let c = 0; c < 4; c++) picture.data[(yy * width + x) * 4 + c] = c === 3 ? 255 : colour(x, yy, c);
    const piece: Pixels = { width: size, height: size, data: new Uint8ClampedArray(size * size * 4) };
    for (let j = 0; j < size; j++)
      for (let i = 0; i < size; i++) {
        const p = (j * size + i) * 4;
        const q = ((y + j) * width + gapX + i) * 4;
        for (let c = 0; c < 3; c++) {
          piece.data[p + c] = picture.data[q + c];
          picture.data[q + c] = Math.round(picture.data[q + c] * 0.45);
        }
        piece.data[p + 3] = 255;
      }
    expect(findPuzzleGap(picture, piece, y)).toBe(gapX);
  });
});
