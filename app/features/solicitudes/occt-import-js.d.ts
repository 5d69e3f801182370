// Types for the parts of occt-import-js 0.0.23 (an Emscripten build of OpenCascade's STEP/IGES
// readers) that the /cotiza CAD worker uses. See its README: ReadFile(format, content, params).
declare module "occt-import-js" {
  export interface OcctMesh {
    attributes: { position: { array: ArrayLike<number> } };
    index: { array: ArrayLike<number> };
  }
  export interface OcctResult {
    success: boolean;
    meshes?: OcctMesh[];
  }
  export interface OcctParams {
    linearUnit?: "millimeter" | "centimeter" | "meter" | "inch" | "foot";
    linearDeflectionType?: "bounding_box_ratio" | "absolute_value";
    linearDeflection?: number;
    angularDeflection?: number;
  }
  export interface Occt {
    ReadFile(format: "step" | "iges" | "brep", content: Uint8Array, params: OcctParams | null): OcctResult;
  }
  export interface OcctModuleOptions {
    locateFile?: (path: string, prefix: string) => string;
    instantiateWasm?: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) => object;
    print?: (text: string) => void;
    printErr?: (text: string) => void;
  }
  const occtimportjs: (options?: OcctModuleOptions) => Promise<Occt>;
  export default occtimportjs;
}
