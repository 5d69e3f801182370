import v8 from "node:v8";

// How V8 weighs memory outside its heap (docs/decisions/0077). Every chunk of a request body is a
// buffer outside the JavaScript heap. By default V8 adds the bytes of those buffers to the old
// generation's allocation, so a burst of uploads starts one full marking of the whole heap after
// another (80 MB and more here: the app, the database's client, the caches), however little of it
// is garbage: about one per 100 MB read. With this flag they count toward the global limit
// instead, which grows with what survived the last collection, and a hard limit still collects at
// once when buffers pile up. Newer V8 does this by default (the flag was later removed and this
// made the only behaviour). Set before the app is loaded.

export function tuneHeap(): void {
  v8.setFlagsFromString("--external-memory-accounted-in-global-limit");
}
