import { AVATAR_CROP_PX } from '@pm/shared';

export interface PixelArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Cuts the chosen square out of the picture as a 300×300 PNG (SPEC §9 avatar crop). */
export async function cropImage(src: string, area: PixelArea): Promise<Blob> {
  const image = new Image();
  image.src = src;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = AVATAR_CROP_PX;
  canvas.height = AVATAR_CROP_PX;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas unavailable');
  ctx.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, AVATAR_CROP_PX, AVATAR_CROP_PX);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('crop failed'))), 'image/png'),
  );
}
