// A temp created exclusively (flag 'wx', COPYFILE_EXCL, as git's index.lock):
// a second writer fails with EEXIST instead of sharing the file.
import * as fs from 'fs';

export function save(p: string, data: object) {
  const tmp = p + '.tmp';
  fs.writeFileSync(tmp, JSON.stringify(data), { flag: 'wx' });
  fs.renameSync(tmp, p);
}

export async function save2(p: string) {
  const tmp = `${p}.lock`;
  await fs.promises.copyFile(p, tmp, fs.constants.COPYFILE_EXCL);
  await fs.promises.rename(tmp, p);
}
