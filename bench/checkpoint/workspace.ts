// The 10,000-file workspace both checkpoint benchmarks use: 100 folders of 100 small source files, plus an
// ignored node_modules (it must cost nothing), and the change a tool round typically makes (20 files).
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

export const FILES = 10_000;
export const CHANGED_FILES = 20;
const FILES_PER_FOLDER = 100;

export async function createWorkspace(workspace: string): Promise<void> {
  for (let folder = 0; folder < FILES / FILES_PER_FOLDER; folder += 1) {
    const directory = path.join(workspace, "src", `module${folder}`);
    await mkdir(directory, { recursive: true });
    for (let file = 0; file < FILES_PER_FOLDER; file += 1) {
      await writeFile(path.join(directory, `file${file}.ts`), sourceText(folder, file, 0));
    }
  }
  await mkdir(path.join(workspace, "node_modules", "dependency"), { recursive: true });
  await writeFile(path.join(workspace, "node_modules", "dependency", "index.js"), "module.exports = 1;\n");
  await writeFile(path.join(workspace, ".gitignore"), "node_modules/\n");
}

/** Rewrites CHANGED_FILES files (one per folder) with `version`: same size, new content. */
export async function changeFiles(workspace: string, version: number): Promise<void> {
  for (let file = 0; file < CHANGED_FILES; file += 1) await writeFile(path.join(workspace, "src", `module${file}`, "file0.ts"), sourceText(file, 0, version));
}

function sourceText(folder: number, file: number, version: number): string {
  return `export const value${folder}_${file} = ${version % 10};\n`.repeat(20);
}
