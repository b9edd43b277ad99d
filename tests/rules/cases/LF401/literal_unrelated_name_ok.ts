// A rename between two literal names that are not a temp and its target
// (a rotation of the previous log aside): no shared temp of a write.
import { rename } from "node:fs/promises";
import { join } from "node:path";

export async function rotate(dir: string): Promise<void> {
  await rename(join(dir, "current.log"), join(dir, "previous.log"));
}
