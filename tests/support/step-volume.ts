import occtimportjs from "occt-import-js";

// The volume OpenCascade reads from STEP bytes, in mm³: signed tetrahedra of a fine tessellation of
// every solid, independent of the code under test (which writes STEP with replicad and measures with
// its own mesh code). For "the download is the part" checks.
export async function stepVolume(bytes: Uint8Array): Promise<number> {
  const occt = await occtimportjs({ print: () => {}, printErr: () => {} });
  const result = occt.ReadFile("step", bytes, { linearUnit: "millimeter", linearDeflectionType: "bounding_box_ratio", linearDeflection: 0.0005, angularDeflection: 0.2 });
  if (!result.success) throw new Error("OpenCascade could not read the STEP");
  let volume = 0;
  for (const mesh of result.meshes ?? []) {
    const p = mesh.attributes.position.array;
    const index = mesh.index.array;
    for (let i = 0; i < index.length; i += 3) {
      const [a, b, c] = [index[i]! * 3, index[i + 1]! * 3, index[i + 2]! * 3];
      volume += (p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) - p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!) + p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!)) / 6;
    }
  }
  return Math.abs(volume);
}
