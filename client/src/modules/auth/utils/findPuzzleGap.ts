/** Pixels of a picture (RGBA rows). */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** How the api darkens the gap (api captcha.service: 45 % of the picture under the piece). */
const GAP_SHADE = 0.45;
/** A pixel of the darkened gap matches the piece's within this much per channel (PNG rounding). */
const MATCH = 6;

/**
 * The left edge of the gap the piece fits, found by comparing the piece with the picture along
 * its row: inside the gap the picture is the piece darkened (api captcha.service). This is the
 * slider's accessible alternative (people who cannot see the picture or drag); the slider is a
 * convenience, not a control (README "Sign-in limits"), so doing its work for them costs nothing.
 */
export function findPuzzleGap(picture: Pixels, piece: Pixels, y: number): number {
  let best = 0;
  let bestMatches = -1;
  for (let x = 0; x + piece.width <= picture.width; x++) {
    let matches = 0;
    for (let j = 0; j < piece.height && y + j < picture.height; j++) {
      for (let i = 0; i < piece.width; i++) {
        const p = (j * piece.width + i) * 4;
        if (piece.data[p + 3] < 255) continue;
        const q = ((y + j) * picture.width + x + i) * 4;
        let same = true;
        for (let c = 0; c < 3 && same; c++)
          same = Math.abs(picture.data[q + c] - piece.data[p + c] * GAP_SHADE) <= MATCH;
        if (same) matches++;
      }
    }
    if (matches > bestMatches) {
      bestMatches = matches;
      best = x;
    }
  }
  return best;
}

/** The pixels of a picture given as a URL (the puzzle's data URLs). */
export async function loadPixels(src: string): Promise<Pixels> {
  const image = new Image();
  image.src = src;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no canvas');
  context.drawImage(image, 0, 0);
  return {
    width: canvas.width,
    height: canvas.height,
    data: context.getImageData(0, 0, canvas.width, canvas.height).data,
  };
}
