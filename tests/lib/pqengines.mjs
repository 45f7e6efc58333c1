// Reads a Parquet file with engines other than DuckDB and prints, per
// engine, one JSON line: {"engine", "schema": [[name, type, nullable]],
// "rows": [[column values as strings or null]]}, in file order; the test
// sorts them to compare with DuckDB's. arrow-rs (the Rust parquet crate, as
// parquet-wasm) and hyparquet (a JavaScript reader) share no code with
// DuckDB or with each other.
// usage: node pqengines.mjs FILE.parquet
import { readFileSync } from 'fs';
import * as pw from 'parquet-wasm/node';
import { tableFromIPC } from 'apache-arrow';
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const file = readFileSync(process.argv[2]);
const text = (v) => (v === null || v === undefined ? null : String(v));

// Arrow's get() turns a nanosecond timestamp into a float of milliseconds:
// the integers are read from the chunks' int64 buffers instead.
function rawColumn(vec, timestamp) {
	const out = [];
	for (const d of vec.data)
		for (let j = 0; j < d.length; j++)
			out.push(!d.getValid(j) ? null : timestamp ? d.values[j] : vec.get(out.length));
	return out;
}

function arrowRs() {
	const table = tableFromIPC(pw.readParquet(new Uint8Array(file)).intoIPCStream());
	const fields = table.schema.fields;
	const schema = fields.map((f) => [f.name, String(f.type), f.nullable]);
	const cols = fields.map((f) => rawColumn(table.getChild(f.name), String(f.type).startsWith('Timestamp')));
	const rows = [];
	for (let i = 0; i < table.numRows; i++)
		rows.push(cols.map((c) => text(c[i])));
	return { engine: 'arrow-rs', schema, rows };
}

async function hyparquet() {
	const ab = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
	const md = parquetMetadata(ab);
	const leaves = parquetSchema(md).children.map((c) => c.element);
	const schema = leaves.map((e) => [e.name, e.type + (e.logical_type ? ':' + e.logical_type.type : ''),
		e.repetition_type === 'OPTIONAL']);
	// utf8: false keeps strings as bytes, decoded here so invalid UTF-8
	// turns into U+FFFD the same way in every engine's output
	const parsers = { timestampFromNanoseconds: (ns) => ns };
	const objs = await parquetReadObjects({ file: ab, compressors, utf8: false, parsers });
	const dec = new TextDecoder('utf-8');
	const rows = objs.map((o) => leaves.map((e) => {
		const v = o[e.name];
		if (v instanceof Uint8Array) return dec.decode(v);
		return text(v);
	}));
	return { engine: 'hyparquet', schema, rows };
}

console.log(JSON.stringify(arrowRs()));
console.log(JSON.stringify(await hyparquet()));
