import { Transform } from 'node:stream';

/** Items in, one JSON text a line out (NDJSON), as they arrive. */
export function ndjsonWriter(): Transform {
  return new Transform({
    writableObjectMode: true,
    transform(item, _encoding, done) {
      done(null, `${JSON.stringify(item)}\n`);
    },
  });
}
