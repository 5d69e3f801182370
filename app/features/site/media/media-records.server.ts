import { getDb } from "~/db/client.server";
import type { RecordFieldMap } from "~/db/record-filter.server";
import { media } from "~/db/schema/content";
import { mediaUrl } from "~/lib/media";
import { isUuid } from "~/lib/uuid";
import type { RecordFileSource } from "~/services/files/record-files.server";
import type { RecordCollection, RecordData } from "~/services/records/collection.server";
import { tableCollection } from "~/services/records/table-collection.server";
import { getMediaFile } from "./media-file.server";

// `medios` of the record API (issue 16; docs/decisions/0050) is the media library's own table, read
// by anyone, as the public pages show its images: PocketBase's fields `archivo` (a file field: the
// widest WebP variant, at /api/files/medios/<id>/<archivo>), `alt`, `ancho`, `alto`, plus the
// focal point and every variant's address under /medios/. Staff add, edit and delete images at
// /admin/medios, where uploads are checked by content; the API does not write them.

const FIELDS: RecordFieldMap = {
  id: { column: media.id, type: "text" },
  created: { column: media.createdAt, type: "date" },
  updated: { column: media.updatedAt, type: "date" },
  alt: { column: media.alt, type: "text" },
  ancho: { column: media.width, type: "number" },
  alto: { column: media.height, type: "number" },
  foco_x: { column: media.focalX, type: "number" },
  foco_y: { column: media.focalY, type: "number" },
};

const selectMedia = () => getDb().select().from(media).$dynamic();
type MediaRow = typeof media.$inferSelect;

/** The whole image's variants (crops are cut on request and not listed), narrowest first, AVIF before WebP. */
function wholeVariants(row: MediaRow) {
  return row.variants.filter((variant) => !variant.crop).sort((a, b) => a.width - b.width || a.format.localeCompare(b.format));
}

function toRecord(row: MediaRow): RecordData {
  const variants = wholeVariants(row);
  const widest = variants.filter((variant) => variant.format === "webp").at(-1);
  return {
    id: row.id,
    created: row.createdAt,
    updated: row.updatedAt,
    archivo: widest ? `${widest.width}.webp` : "",
    alt: row.alt,
    ancho: row.width,
    alto: row.height,
    foco_x: row.focalX,
    foco_y: row.focalY,
    variantes: variants.map((variant) => ({ url: mediaUrl(row.id, variant.width, variant.format), formato: variant.format, ancho: variant.width, alto: variant.height })),
  };
}

export const mediosCollection: RecordCollection = tableCollection<MediaRow>({
  id: "pbc_medios",
  name: "medios",
  fields: FIELDS,
  defaultSort: "-created",
  table: media,
  idColumn: media.id,
  isId: isUuid,
  select: selectMedia,
  // Public: every image of the library may be shown on a page.
  rule: () => undefined,
  toRecord,
});

/** `archivo` through the files API: the variant itself (PocketBase's thumbs are not offered; the /medios/ addresses have every size). */
export const mediosFiles: RecordFileSource = {
  collection: mediosCollection,
  fields: ["archivo"],
  protected: false,
  async open({ record, fileName }) {
    const file = await getMediaFile(record.id, fileName);
    return file ? { name: fileName, contentType: file.type, size: file.body.length, body: file.body } : null;
  },
};
