import {
  $applyNodeReplacement,
  DecoratorNode,
  type DOMConversionMap,
  type DOMExportOutput,
  type LexicalNode,
  type NodeKey,
  type SerializedLexicalNode,
  type Spread,
} from "lexical";
import { createContext, createElement, useContext, type ReactNode } from "react";

// An image of the media library inside a long text: the node keeps the media id and the alt text
// only; where the file is and its size come from the library when the text is rendered
// (render.server.ts's resolveImage) or shown in the editor (ImagePreviewContext).

export type SerializedImageNode = Spread<{ mediaId: string; alt: string }, SerializedLexicalNode>;

export interface ImagePreviewSource {
  src: string;
  width?: number;
  height?: number;
}

/** How the editor shows an image: given by the page that hosts the editor, when it can. */
export const ImagePreviewContext = createContext<((mediaId: string) => ImagePreviewSource | null) | null>(null);

function ImagePreview({ mediaId, alt }: { mediaId: string; alt: string }): ReactNode {
  const resolve = useContext(ImagePreviewContext);
  const source = resolve?.(mediaId) ?? null;
  if (!source) {
    return createElement("span", { className: "inline-block rounded border border-dashed border-acero-400 px-2 py-1 text-sm text-acero-700" }, `Imagen: ${alt || "sin texto alternativo"}`);
  }
  return createElement("img", { src: source.src, alt, width: source.width, height: source.height, className: "inline-block max-w-full h-auto" });
}

export class ImageNode extends DecoratorNode<ReactNode> {
  __mediaId: string;
  __alt: string;

  static getType(): string {
    return "image";
  }

  static clone(node: ImageNode): ImageNode {
    return new ImageNode(node.__mediaId, node.__alt, node.__key);
  }

  constructor(mediaId = "", alt = "", key?: NodeKey) {
    super(key);
    this.__mediaId = mediaId;
    this.__alt = alt;
  }

  static importJSON(serialized: SerializedImageNode): ImageNode {
    return $createImageNode(String(serialized.mediaId ?? ""), String(serialized.alt ?? "")).updateFromJSON(serialized);
  }

  exportJSON(): SerializedImageNode {
    return { ...super.exportJSON(), type: "image", version: 1, mediaId: this.__mediaId, alt: this.__alt };
  }

  static importDOM(): DOMConversionMap | null {
    return {
      img: (element: HTMLElement) =>
        element.hasAttribute("data-media-id")
          ? { conversion: (img: HTMLElement) => ({ node: $createImageNode(img.getAttribute("data-media-id") ?? "", img.getAttribute("alt") ?? "") }), priority: 1 }
          : null,
    };
  }

  exportDOM(): DOMExportOutput {
    const img = document.createElement("img");
    img.setAttribute("data-media-id", this.__mediaId);
    img.setAttribute("alt", this.__alt);
    return { element: img };
  }

  createDOM(): HTMLElement {
    return document.createElement("span");
  }

  updateDOM(): false {
    return false;
  }

  getMediaId(): string {
    return this.getLatest().__mediaId;
  }

  getAlt(): string {
    return this.getLatest().__alt;
  }

  getTextContent(): string {
    return "";
  }

  decorate(): ReactNode {
    return createElement(ImagePreview, { mediaId: this.__mediaId, alt: this.__alt });
  }
}

export function $createImageNode(mediaId: string, alt: string): ImageNode {
  return $applyNodeReplacement(new ImageNode(mediaId, alt));
}

export function $isImageNode(node: LexicalNode | null | undefined): node is ImageNode {
  return node instanceof ImageNode;
}
