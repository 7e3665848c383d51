// Backup and restore of the embedded database and the uploads (issue 17): `npm run backup` while
// the product runs and residents keep filing complaints, `npm run restore` into a fresh DATA_DIR,
// then the product on the restored data: a complaint filed before the backup is there, with the
// picture uploaded for it, and people sign in with their passwords.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, apiCall, apiToken, repoRoot, RESIDENT, startProduct, type Product } from '../support/kit';

const work = mkdtempSync(join(tmpdir(), 'ops-backup-'));
const products: Product[] = [];
afterAll(async () => {
  for (const p of products) await p.stop();
  rmSync(work, { recursive: true, force: true });
});

/** `npm run <script> -- <file>` on DATA_DIR: exit code and what it printed. */
function npmRun(script: 'backup' | 'restore', file: string, dataDir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const child = spawn('npm', ['run', '--silent', script, '--', file], { cwd: repoRoot, env });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise<{ status: number | null; output: string }>((resolve) =>
    child.once('close', (status) => resolve({ status, output: output.replace(/^npm warn .*\n/gm, '').trim() })),
  );
}

async function fileComplaint(url: string, token: string, name: string, img?: string): Promise<number> {
  const houses = await apiCall<{ houseType: number; houseId: number }[]>(url, '/app/house/list', token);
  const { houseType, houseId } = houses[0];
  const saved = await apiCall<{ complainId: number }>(url, '/app/complain/save', token, {
    name,
    note: 'Filed before the backup',
    houseType,
    houseId,
    ...(img ? { img } : {}),
  });
  return saved.complainId;
}

describe('backup and restore', () => {
  // Two product starts, a backup under writes and a restore: 104 s alone at load 24, and the default
  // 120 s was missed at that load; the bound is for a loaded runner, not a speed the test asserts.
  it('when the running product is backed up and restored into a fresh DATA_DIR, then its people, a complaint and its picture are back', async () => {
    const before = await startProduct();
    products.push(before);
    const resident = await apiToken(before.url, RESIDENT);

    // A picture, uploaded as the resident app does, and a complaint naming it.
    const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c0392b' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([picture], { type: 'image/png' }), 'leak.png');
    const upload = await fetch(`${before.url}/api/upload/uploadimage/complain`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${resident}` },
      body: form,
    });
    expect(upload.status).toBe(200);
    const { originalImagePath } = ((await upload.json()) as { data: { originalImagePath: string } }).data;
    const complaintId = await fileComplaint(before.url, resident, 'Water through the ceiling', originalImagePath);

    // The resident keeps filing, one complaint after another, while the backup is made.
    let filing = true;
    let filed = 0;
    const writer = (async () => {
      for (let i = 0; filing; i++) {
        await fileComplaint(before.url, resident, `During the backup ${i}`);
        filed += 1;
      }
    })();
    const file = join(work, 'product.tar.gz');
    const made = await npmRun('backup', file, before.dataDir);
    filing = false;
    await writer;
    expect(made.status, made.output).toBe(0);
    expect(made.output).toMatch(
      new RegExp(
        `^backup of ${before.dataDir} written to ${file} \\(.* MB, \\d+ uploaded files\\), made by the running api$`,
      ),
    );
    expect(filed).toBeGreaterThan(0);
    await before.stop();

    // Into a fresh directory; a second restore onto it is refused.
    const restored = join(work, 'restored');
    const back = await npmRun('restore', file, restored);
    expect(back.status, back.output).toBe(0);
    expect(back.output).toMatch(/^restored .* into .*restored: start the api on it$/);
    const again = await npmRun('restore', file, restored);
    expect(again.status).toBe(1);
    expect(again.output).toContain('already holds a database');

    const after = await startProduct({ DATA_DIR: restored });
    products.push(after);
    const admin = await apiToken(after.url, ADMIN);
    const complaint = await apiCall<{ name: string; img: string | null }>(
      after.url,
      `/complain/query/id/${complaintId}`,
      admin,
      {},
    );
    expect(complaint.name).toBe('Water through the ceiling');
    expect(complaint.img).toContain(originalImagePath);
    const served = await fetch(`${after.url}/api${originalImagePath.replace(/^\/api/, '')}`, {
      headers: { Authorization: `Bearer ${admin}` },
    });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(picture)).toBe(true);
    // The resident's password works too: the accounts came back with the rest.
    expect(await apiToken(after.url, RESIDENT)).toBeTruthy();
  }, 240_000);
});
